/** The report draws calls in the colours of their status: see report/call-status.ts. */
export {
  REPORT_STATUSES,
  type ReportStatus,
  runStatusOf,
  STATUS_STYLES,
  type StatusStyle,
} from '../call-status.js';
