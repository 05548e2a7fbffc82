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

export class RepeatWatch {
  readonly #seen = new Set<string>();
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

  /** A turn that ran. */
  remember(key: string): void {
    this.#seen.add(key);
  }
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
