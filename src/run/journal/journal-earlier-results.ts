/**
 * Reusing what the journal of an earlier version of the plan completed. A call's earlier result
 * is reused when the earlier journal holds a completed `call:end` of the same call id, for the
 * same tool, whose definition has not changed, and whose last `call:start` had the same resolved
 * arguments (compared as canonical JSON). Resolved arguments are known only once the call is
 * ready (after the calls it reads from ran, or were reused), so each call is judged then, not
 * up front. Everything else runs, and the report says why.
 *
 * An earlier run may itself have resumed from a still earlier journal: the sources are that
 * chain, newest first, and a call reuses the first result that fits.
 */
import type { JsonObject } from '../../language/document.js';
import type { CallEndEvent } from './journal-format.js';
import { canonicalJson } from './journal-format.js';
import type { EarlierVersionReport, NotReusedCall, NotReusedReason } from '../types.js';

/** One earlier journal, read. */
export interface EarlierSource {
  /** The journal file. */
  readonly path: string;
  /** Each call's last completed `call:end` (see Scan.completed). */
  readonly completed: ReadonlyMap<string, CallEndEvent>;
  /** The resolved arguments of each completed call, when the journal knows them. */
  readonly args: ReadonlyMap<string, JsonObject>;
  /** The calls that started, whether or not they completed. */
  readonly started: ReadonlyMap<string, unknown>;
  /** True when the tool of this name is defined as it was when this journal was written. */
  readonly sameTool: (name: string) => boolean;
}

export class EarlierResults {
  readonly #sources: readonly EarlierSource[];
  readonly #callTool: (call: string) => string | undefined;
  readonly #reused: string[] = [];
  readonly #notReused: NotReusedCall[] = [];

  /**
   * @param sources The chain of earlier journals, newest first (at least one).
   * @param callTool The tool the run's plan calls for a call id.
   */
  constructor(sources: readonly EarlierSource[], callTool: (call: string) => string | undefined) {
    this.#sources = sources;
    this.#callTool = callTool;
  }

  /**
   * The earlier `call:end` to replay for this call, now ready with these resolved arguments, or
   * undefined when it must run (the reason is kept for the report).
   */
  match(call: string, args: JsonObject): CallEndEvent | undefined {
    const tool = this.#callTool(call);
    let canonical: string | undefined;
    let reason: NotReusedReason | undefined;
    for (const source of this.#sources) {
      const end = source.completed.get(call);
      let why: NotReusedReason;
      if (end === undefined) {
        why = source.started.has(call) ? 'did not succeed' : 'not run before';
      } else if (tool === undefined || end.tool !== tool) {
        why = 'tool differs';
      } else if (!source.sameTool(tool)) {
        why = 'tool definition differs';
      } else {
        const earlier = source.args.get(call);
        canonical ??= canonicalJson(args);
        if (earlier === undefined) why = 'arguments not journaled';
        else if (canonicalJson(earlier) !== canonical) why = 'arguments differ';
        else {
          this.#reused.push(call);
          return end;
        }
      }
      // The newest journal that knows the call says why; one that never saw it says least.
      if (reason === undefined || reason === 'not run before') reason = why;
    }
    this.#notReused.push({ call, reason: reason! });
    return undefined;
  }

  /**
   * What was reused and what ran, so far; undefined while no call was looked up (every call
   * that became ready was in this run's own journal).
   */
  report(): EarlierVersionReport | undefined {
    if (this.#reused.length === 0 && this.#notReused.length === 0) return undefined;
    return {
      journal: this.#sources[0]!.path,
      reused: [...this.#reused],
      notReused: [...this.#notReused],
    };
  }
}
