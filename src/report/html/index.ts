/** The self-contained HTML report of a run or a dry run. */
export {
  REPORT_DIRECTIONS,
  REPORT_LAYOUTS,
  type ReportInput,
  type ReportOptions,
  renderReport,
} from './render-report.js';
export { REPORT_STATUSES, type ReportStatus, STATUS_STYLES, type StatusStyle } from './status.js';
