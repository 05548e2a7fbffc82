/** What the run knows of one call while it runs; the result's call reports are made from it. */
import type { JsonObject } from '../language/document.js';
import type { CallError, CallStatus, ElementReport } from './types.js';

export interface CallRecord {
  status: CallStatus | null;
  branch: number | null;
  handled: boolean;
  attempts: number;
  startedAt: number | null;
  endedAt: number | null;
  error: CallError | null;
  output?: unknown;
  args?: JsonObject;
  /** Set when RunOptions.reuse gave the result: the tool did not run. */
  reused?: true;
  /** The references without a value that skipped the call, as written. */
  missing?: readonly string[];
  /** A `_forEach` call's elements, in order, once it started them (see run/call/for-each.ts). */
  elements?: ElementReport[];
  /** Set while an attempt on the run's shared signal waits for the tool's answer (see Runner.abort). */
  racing: boolean;
}

export function newRecord(): CallRecord {
  return {
    status: null,
    branch: null,
    handled: false,
    attempts: 0,
    startedAt: null,
    endedAt: null,
    error: null,
    // Every field from the start, so every record keeps one shape as the run fills it in.
    output: undefined,
    args: undefined,
    reused: undefined,
    missing: undefined,
    elements: undefined,
    racing: false,
  };
}
