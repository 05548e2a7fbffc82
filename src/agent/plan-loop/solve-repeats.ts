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

/** A solution as the watch knows it: its key, and each call as sorted JSON. */
export interface SolutionKey {
  readonly key: string;
  readonly calls: readonly string[];
}

export class RepeatWatch {
  readonly #seen = new Set<string>();
  /** Per state (its key), the calls (sorted JSON each) of every plan run from it. */
  readonly #plans = new Map<string, (readonly string[])[]>();
  #warned = false;

  /** The key of the state a turn starts from: computed once per turn, for the calls below. */
  stateKey(state: JsonObject): string {
    return createHash('sha256').update(sortedJson(state)).digest('hex');
  }

  /** A turn's solution from the state of key `from`; each call is written once. */
  solution(calls: readonly unknown[], output: unknown, from: string): SolutionKey {
    const texts = calls.map(sortedJson);
    const hash = createHash('sha256');
    for (const text of texts) hash.update(text).update('\n');
    const key = hash.update(sortedJson(output)).update('\n').update(from).digest('hex');
    return { key, calls: texts };
  }

  /**
   * `new`: run it (and it is remembered); `warn`: a first repeat, tell the model; `stalled`: a
   * repeat after the warning.
   */
  check(solution: SolutionKey): 'new' | 'warn' | 'stalled' {
    if (!this.#seen.has(solution.key)) return 'new';
    if (this.#warned) return 'stalled';
    this.#warned = true;
    return 'warn';
  }

  /** A turn that ran, from the state of key `from`. */
  remember(solution: SolutionKey, from: string): void {
    this.#seen.add(solution.key);
    const plans = this.#plans.get(from) ?? [];
    plans.push(solution.calls);
    this.#plans.set(from, plans);
  }

  /** A matcher of the plans run from the state of key `from`, or undefined when none was. */
  prefix(from: string): RepeatPrefix | undefined {
    const plans = this.#plans.get(from);
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
