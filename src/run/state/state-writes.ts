/** A call's output written to the state at the alternatives it names, with its events. */
import { cloneJson } from '../../language/json/index.js';
import type { RunEventDraft } from '../run-event.js';
import { checkStateWrites, type StateCheckHost } from './state-schema-check.js';
import { type RunState, StateWriteError } from './state-store.js';
import type { FailureTaint } from './taint.js';

/** What writing an output needs of the run (the Runner is one). */
export interface StateWriteHost extends StateCheckHost {
  readonly state: RunState;
  readonly taint: FailureTaint;
  readonly listening: boolean;
  event(event: RunEventDraft): void;
}

/**
 * Writes a JSON value the run owns (of JSON size `size`) at each alternative named.
 * @throws {ToolExecutionError} LIMIT or STATE_CONFLICT when the state cannot take it, and
 *   INVALID_OUTPUT, before anything is written, when the value breaks the plan's state schema.
 */
export function writeOutput(
  run: StateWriteHost,
  i: number,
  alternatives: readonly number[],
  value: unknown,
  size: number,
): void {
  const call = run.calls[i]!;
  const output = call.outputPath!;
  // One field read when the plan has no state schema: nothing else is looked up per write.
  if (run.plan.stateSchema !== undefined) checkStateWrites(run, i, alternatives, value);
  for (let n = 0; n < alternatives.length; n++) {
    const k = alternatives[n]!;
    const path = output.paths[k]!;
    // Each place gets its own copy: the state's containers are written in place later.
    const placed = n === 0 ? value : cloneJson(value);
    try {
      run.state.write(path.segments, placed, size);
    } catch (e) {
      if (e instanceof StateWriteError)
        throw run.failure(i, `cannot write ${output.refs[k]!.text}: ${e.message}`, e.code);
      throw e;
    }
    run.taint.clear(path.segments);
    if (run.listening)
      run.event({ type: 'state:write', call: call.id, path: output.refs[k]!.text, value: placed });
  }
}

const single: (readonly number[])[] = [];
const firsts: (readonly number[])[] = [];

/**
 * The alternatives a call's output goes to: all of them for `&&`, else the one chosen. The
 * lists are made once per size and shared (a run writes one output per call: no array each).
 */
export function alternativesOf(op: string | null, count: number, choice: number): readonly number[] {
  if (op === '&&') return (firsts[count] ??= Object.freeze(Array.from({ length: count }, (_, k) => k)));
  return (single[choice] ??= Object.freeze([choice]));
}
