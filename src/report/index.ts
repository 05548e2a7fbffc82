/** planmode/report: pictures of a compiled plan, and the HTML report of a run or a dry run. */
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
