/**
 * Which calls can never both run. A call that needs a value only one alternative of a
 * branching call writes (`†state.sunny` of `†state.sunny || †state.rainy`) runs only when
 * that alternative is taken; two calls guarded by different alternatives of the same call
 * are exclusive, and their writes to one path (the join pattern: each side of a branch writes
 * the value a `||` reader joins on) are no conflict.
 */
import { pathsOverlap } from '../language/paths.js';
import type { CallSpec } from './read-call.js';

type Guards = Map<number, number> | null;

const MAX_GUARDS = 8;

export class ExclusiveBranches {
  readonly #guards: Guards[];

  constructor(calls: readonly CallSpec[], order: readonly number[]) {
    this.#guards = new Array<Guards>(calls.length).fill(null);
    for (const c of order) {
      let guards: Guards = null;
      const add = (branch: number, alternative: number) => {
        guards ??= new Map();
        if (guards.size < MAX_GUARDS && !guards.has(branch)) guards.set(branch, alternative);
      };
      const call = calls[c]!;
      for (const argument of call.refs) {
        // In an `||` expression no single reference is needed, so none of them guards.
        if (argument.expression.op === '||' && argument.expression.refs.length > 1) continue;
        for (const ref of argument.expression.refs) {
          const read = call.reads.find((r) => r.ref === ref);
          if (read?.writers.length !== 1) continue;
          const writer = read.writers[0]!;
          const output = calls[writer]!.outputPath;
          if (output?.op === '||' && output.paths.length > 1) {
            const taken = output.paths.flatMap((p, k) => (pathsOverlap(p, read.path) ? [k] : []));
            if (taken.length === 1) add(writer, taken[0]!);
          }
          const inherited = this.#guards[writer];
          if (inherited) for (const [b, k] of inherited) add(b, k);
        }
      }
      this.#guards[c] = guards;
    }
  }

  /** True when calls a and b are guarded by different alternatives of one branching call. */
  exclusive(a: number, b: number): boolean {
    const ga = this.#guards[a];
    const gb = this.#guards[b];
    if (!ga || !gb) return false;
    for (const [branch, alternative] of ga) {
      const other = gb.get(branch);
      if (other !== undefined && other !== alternative) return true;
    }
    return false;
  }
}
