/**
 * The baseline of bench/run: the least a Promise-based executor of a compiled plan must do.
 *
 * Kahn's algorithm over `calls[i].dependencies` with an index-based ready queue and a
 * concurrency limit; each call's arguments are the literal ones with every reference replaced
 * by `state[name]`; `await Promise.resolve(execute(args))`; the result goes to
 * `state[outputName]`. None of planmode's features (schemas, branches, skips, events, timeouts,
 * retries, deterministic multiple writers, reports), so it only handles what the benchmark
 * plans contain and refuses anything else: references and output paths of one `†state` segment,
 * each reference the whole value of a top-level argument, one output path per call.
 */
import type { CompiledPlan } from '../src/compile/index.js';

export type BaselineExecute = (args: Record<string, unknown>) => unknown;

export interface BaselineOptions {
  /** `execute` of each tool, by name. */
  readonly tools: ReadonlyMap<string, BaselineExecute>;
  /** Most calls running at once. */
  readonly concurrency: number;
}

function singleStateSegment(root: string, segments: readonly unknown[], what: string): string {
  const name = segments[0];
  if (root !== 'state' || segments.length !== 1 || typeof name !== 'string') {
    throw new Error(`baseline executor: ${what} must be one †state segment`);
  }
  return name;
}

/** Runs every call once its dependencies have ended; resolves to the final state. */
export function runBaseline(plan: CompiledPlan, options: BaselineOptions): Promise<Record<string, unknown>> {
  const { calls } = plan;
  const n = calls.length;
  const state: Record<string, unknown> = {};
  const pending = new Int32Array(n);
  // Dependents in CSR form: dependents of call i are targets[offsets[i] .. offsets[i + 1]).
  const offsets = new Int32Array(n + 1);
  for (const call of calls) {
    pending[call.index] = call.dependencies.length;
    for (const dep of call.dependencies) offsets[dep.from + 1]!++;
  }
  for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
  const targets = new Int32Array(offsets[n]!);
  const fill = offsets.slice(0, n);
  for (const call of calls) {
    for (const dep of call.dependencies) targets[fill[dep.from]!++] = call.index;
  }

  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < n; i++) if (pending[i] === 0) queue[tail++] = i;
  let running = 0;
  let done = 0;

  return new Promise((resolve, reject) => {
    const runCall = async (i: number): Promise<void> => {
      const call = calls[i]!;
      const execute = options.tools.get(call.tool);
      if (!execute) throw new Error(`baseline executor: no tool ${call.tool}`);
      const args: Record<string, unknown> = { ...call.args };
      for (const ref of call.refs) {
        const only = ref.expression.refs[0]!;
        if (ref.expression.refs.length !== 1 || ref.at.lastIndexOf('/') !== 0) {
          throw new Error('baseline executor: a reference must be the whole value of a top-level argument');
        }
        args[ref.at.slice(1)] = state[singleStateSegment(only.root, only.segments, 'a reference')];
      }
      const output = call.outputPath;
      if (output?.op || call.literals.length > 0 || call.hasOutput) {
        throw new Error('baseline executor: no alternatives, fan-out, †† literals or _output');
      }
      const target =
        output === null
          ? null
          : singleStateSegment(output.paths[0]!.root, output.paths[0]!.segments, 'an output path');
      const value = await Promise.resolve(execute(args));
      if (target !== null) state[target] = value;
      running--;
      done++;
      for (let k = offsets[i]!; k < offsets[i + 1]!; k++) {
        const next = targets[k]!;
        const left = pending[next]! - 1;
        pending[next] = left;
        if (left === 0) queue[tail++] = next;
      }
      pump();
    };
    const pump = (): void => {
      while (running < options.concurrency && head < tail) {
        running++;
        runCall(queue[head++]!).catch(reject);
      }
      if (done === n) resolve(state);
    };
    pump();
  });
}
