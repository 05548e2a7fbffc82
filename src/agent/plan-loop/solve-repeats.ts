/**
 * No progress, no rerun: a turn whose plan is one the loop already ran from the same state would
 * do nothing new (the same calls, the same inputs), so it is not run. The first time, the model
 * is told it is repeating itself; the next repeat ends the loop `stalled`.
 *
 * A turn is remembered by a hash of its calls, its output and the state it starts from, written
 * with sorted keys, so a plan copied back with its keys in another order is the same plan.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../../language/document.js';

/** What the model reads after its first repeat. */
export const REPEAT_NOTE = [
  'Your last answer repeats a plan that already ran from this same state: running it again would',
  'change nothing, so it did not run. Give different calls (the ones still needed, fixed where',
  'they failed), or set "output" to the final answer. Repeating it once more ends the task as stalled.',
].join(' ');

/** Plans already run from one state, matched call by call against a reply as it streams. */
export interface RepeatPrefix {
  /** The reply's next call: true while the calls so far begin some plan already run. */
  continues(call: unknown): boolean;
}

export class RepeatWatch {
  readonly #seen = new Set<string>();
  /** Per state (its hash), the calls (sorted JSON each) of every plan run from it. */
  readonly #plans = new Map<string, string[][]>();
  #warned = false;

  /** The key of a turn: its solution and the state it starts from. */
  key(calls: readonly unknown[], output: unknown, state: JsonObject): string {
    return createHash('sha256')
      .update(sortedJson({ calls, output }))
      .update('\n')
      .update(sortedJson(state))
      .digest('hex');
  }

  /**
   * `new`: run it (and it is remembered); `warn`: a first repeat, tell the model; `stalled`: a
   * repeat after the warning.
   */
  check(key: string): 'new' | 'warn' | 'stalled' {
    if (!this.#seen.has(key)) return 'new';
    if (this.#warned) return 'stalled';
    this.#warned = true;
    return 'warn';
  }

  /** A turn that ran: its key, and its calls from the state it started from. */
  remember(key: string, calls: readonly unknown[], state: JsonObject): void {
    this.#seen.add(key);
    const from = stateKey(state);
    const plans = this.#plans.get(from) ?? [];
    plans.push(calls.map(sortedJson));
    this.#plans.set(from, plans);
  }

  /** A matcher of the plans run from this state, or undefined when none was. */
  prefix(state: JsonObject): RepeatPrefix | undefined {
    const plans = this.#plans.get(stateKey(state));
    if (!plans) return undefined;
    let candidates = plans;
    let index = 0;
    return {
      continues(call) {
        if (candidates.length === 0) return false;
        const text = sortedJson(call);
        const at = index++;
        candidates = candidates.filter((plan) => plan[at] === text);
        return candidates.length > 0;
      },
    };
  }
}

function stateKey(state: JsonObject): string {
  return createHash('sha256').update(sortedJson(state)).digest('hex');
}

/** JSON with every object's keys sorted; JSON.stringify does the walking (no recursion here). */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    // No prototype: a "__proto__" key is then a key like any other.
    const sorted = Object.create(null) as Record<string, unknown>;
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}
