/** planmode/report: pictures of a compiled plan. */
export {
  type GraphJson,
  type GraphJsonEdge,
  type GraphJsonNode,
  type GraphJsonOutput,
  toDot,
  toGraphJson,
  toMermaid,
} from './graph-export.js';
export { type GraphlibEdge, type GraphlibNode, toGraphlib } from './graphlib.js';
