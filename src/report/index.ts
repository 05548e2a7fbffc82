/** planmode/report: pictures of a compiled plan, and the HTML report of a run or a dry run. */
export {
  type ElementCounts,
  type GraphJson,
  type GraphJsonEdge,
  type GraphJsonForEach,
  type GraphJsonNode,
  type GraphJsonOutput,
  type GraphJsonSubgraph,
  type GraphTextOptions,
  toDot,
  toGraphJson,
  toMermaid,
} from './graph-export.js';
export { type GraphlibEdge, type GraphlibNode, toGraphlib } from './graphlib.js';
export {
  REPORT_DIRECTIONS,
  REPORT_LAYOUTS,
  REPORT_STATUSES,
  type ReportInput,
  type ReportOptions,
  type ReportStatus,
  renderReport,
  STATUS_STYLES,
  type StatusStyle,
} from './html/index.js';
