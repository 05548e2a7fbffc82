/**
 * The lines of `plan run`'s summary that say what went wrong: each failed call with its error,
 * and each call that did not run with the value it lacked and why that value was missing.
 */
import type { CompiledPlan } from '../../compile/types.js';
import type { CallReport, CallStatus } from '../../run/types.js';
import { clip, paint, type Style } from './format.js';
import { explainMissing } from './skip-reasons.js';

export interface CallOutcomeOptions {
  readonly color: boolean;
  /**
   * The compiled plan that ran: with it, a skipped call says why its value was missing.
   * @default undefined (a skipped call names the value it lacked, without the why)
   */
  readonly plan?: CompiledPlan;
  /**
   * List each failed call with its error; the live view has shown them already.
   * @default true
   */
  readonly failures?: boolean;
  /**
   * Calls listed per status; more are counted.
   * @default 10
   */
  readonly maxPerStatus?: number;
}

/** Longest error message shown; the report and --json keep the whole. */
const MAX_ERROR = 300;
/** Longest call id shown. */
const MAX_ID = 80;
/** Missing references explained per call; more are counted. */
const MAX_MISSING = 3;

const LISTED: readonly { readonly status: CallStatus; readonly style: Style }[] = [
  { status: 'failed', style: 'red' },
  { status: 'skipped', style: 'dim' },
  { status: 'upstream_failed', style: 'red' },
];

/**
 * `failed pay: card declined (DECLINED)`,
 * `skipped park: †state.sunny was never written (weather wrote †state.rainy instead)`.
 */
export function formatCallOutcomes(calls: readonly CallReport[], options: CallOutcomeOptions): string {
  const max = options.maxPerStatus ?? 10;
  let out = '';
  for (const { status, style } of LISTED) {
    if (status === 'failed' && options.failures === false) continue;
    let listed = 0;
    let more = 0;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      if (call.status !== status) continue;
      if (listed === max) {
        more++;
        continue;
      }
      listed++;
      const head = `${paint(status, options.color, style)} ${clip(call.id, MAX_ID)}`;
      out += `${head}${status === 'failed' ? failure(call) : `: ${lacking(call, i, calls, options.plan)}`}\n`;
    }
    if (more > 0) out += `… and ${more} more ${status} (plan run --json lists every call)\n`;
  }
  return out;
}

function failure(call: CallReport): string {
  const handled = call.handled ? ' (handled)' : '';
  if (!call.error) return handled;
  const code = call.error.code ? ` (${clip(call.error.code, MAX_ID)})` : '';
  return `${handled}: ${clip(call.error.message, MAX_ERROR)}${code}`;
}

/** Why the call did not run, from the references its report says were missing. */
function lacking(
  call: CallReport,
  index: number,
  calls: readonly CallReport[],
  plan: CompiledPlan | undefined,
): string {
  const missing = [...new Set(call.missing ?? [])];
  if (missing.length === 0) {
    // A call held back by program order says which call it follows, in its error.
    if (call.status === 'upstream_failed' && call.error) return clip(call.error.message, MAX_ERROR);
    return call.status === 'upstream_failed'
      ? 'a value it reads comes from a call that failed'
      : 'a value it reads was missing';
  }
  const reasons = missing
    .slice(0, MAX_MISSING)
    .map((reference) =>
      plan ? explainMissing(plan, calls, index, reference) : `${clip(reference, MAX_ID)} had no value`,
    );
  const more = missing.length - reasons.length;
  if (more > 0) reasons.push(`and ${more} more`);
  return reasons.join('; ');
}
