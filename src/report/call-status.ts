/**
 * How each call is drawn: its terminal state, split where a reader of the picture needs it (a
 * failure routed to a declared error alternative is not an unhandled one; a timeout is a failure
 * worth telling apart), and the dry run's two outcomes per scenario. The HTML report and the
 * graph's text forms (`plan graph --result`) use the same colours.
 */
import type { CallReport } from '../run/types.js';

export const REPORT_STATUSES = [
  'succeeded',
  'handled',
  'failed',
  'timed_out',
  'upstream_failed',
  'skipped',
  'cancelled',
  'rejected',
  'runs',
  'argument_error',
] as const;

export type ReportStatus = (typeof REPORT_STATUSES)[number];

export interface StatusStyle {
  /** Fill of a node or bar. */
  readonly fill: string;
  /** Its outline, darker. */
  readonly stroke: string;
  /** Legend text. */
  readonly label: string;
}

/** Colors chosen apart in hue and lightness, so they stay distinct for most color vision. */
export const STATUS_STYLES: Readonly<Record<ReportStatus, StatusStyle>> = {
  succeeded: { fill: '#c8ecd0', stroke: '#2e8540', label: 'succeeded' },
  handled: { fill: '#fde2b8', stroke: '#c26a00', label: 'failed, handled (error alternative)' },
  failed: { fill: '#f9c0c0', stroke: '#c62828', label: 'failed' },
  timed_out: { fill: '#f4b6d9', stroke: '#ad1457', label: 'failed: timed out' },
  upstream_failed: { fill: '#ded0f2', stroke: '#6a3fb5', label: 'upstream failed' },
  skipped: { fill: '#eceff1', stroke: '#90a4ae', label: 'skipped' },
  cancelled: { fill: '#fff3b0', stroke: '#9e8600', label: 'cancelled' },
  rejected: { fill: '#d7ccc8', stroke: '#5d4037', label: 'rejected' },
  runs: { fill: '#cfe3fb', stroke: '#1f63b5', label: 'runs' },
  argument_error: { fill: '#f9c0c0', stroke: '#c62828', label: 'runs, argument error' },
};

/** A call's drawing status from its run report. */
export function runStatusOf(call: CallReport): ReportStatus {
  if (call.status === 'failed') {
    if (call.handled) return 'handled';
    if (call.error?.code === 'TIMEOUT') return 'timed_out';
  }
  return call.status;
}
