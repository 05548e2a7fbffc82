/**
 * Which calls can never both run. A call that needs a value only one alternative of a
 * branching call writes (`†state.sunny` of `†state.sunny || †state.rainy`) runs only when
 * that alternative is taken; two calls guarded by different alternatives of the same call
 * are exclusive, and their writes to one path (the join pattern: each side of a branch writes
 * the value a `||` reader joins on) are no conflict.
 */
import { type Path, pathsOverlap } from '../language/paths.js';
import type { CallSpec } from './read-call.js';
import type { ReadBinding } from './types.js';

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
    return onOtherAlternatives(this.#guards[a], this.#guards[b]);
  }
}

/**
 * The same idea, kept while calls are bound and strict enough to drop edges on: a guard is
 * taken only from a read whose value no one but the branching call can have put there (its
 * sole writer wrote that path first, and the initial state holds nothing at it), so a call
 * guarded by one alternative really never runs when another is taken. Reads bound later
 * (forward references) give no guard: fewer guards only keep more edges.
 */
export class BranchGuards {
  readonly #guards: Guards[] = [];
  /** Per call, 1 when no earlier write and no initial value overlapped what it writes. */
  readonly #clean: number[] = [];

  /**
   * Guards of call `i` from its reads bound so far. `empty(path)` is true when the initial
   * state holds nothing at that path.
   */
  add(
    i: number,
    call: CallSpec,
    reads: readonly ReadBinding[],
    calls: readonly CallSpec[],
    empty: (path: Path) => boolean,
  ): void {
    let guards: Guards = null;
    let never = false;
    const add = (branch: number, alternative: number) => {
      guards ??= new Map();
      const other = guards.get(branch);
      // Needing two alternatives of one call at once: it never runs.
      if (other !== undefined && other !== alternative) never = true;
      else if (guards.size < MAX_GUARDS && other === undefined) guards.set(branch, alternative);
    };
    for (const argument of call.refs) {
      if (argument.expression.op === '||' && argument.expression.refs.length > 1) continue;
      for (const ref of argument.expression.refs) {
        const read = reads.find((r) => r.ref === ref);
        if (read?.kind !== 'earlier' || read.writers.length !== 1) continue;
        const writer = read.writers[0]!;
        if (this.#clean[writer] !== 1 || !empty(read.path)) continue;
        const output = calls[writer]!.outputPath;
        if (output?.op === '||' && output.paths.length > 1) {
          const taken = output.paths.flatMap((p, k) => (pathsOverlap(p, read.path) ? [k] : []));
          if (taken.length === 1) add(writer, taken[0]!);
        }
        const inherited = this.#guards[writer];
        if (inherited) for (const [b, k] of inherited) add(b, k);
        // Its value comes from a call that never runs alone.
        if (this.neverRuns[writer] === 1) never = true;
      }
    }
    this.#guards[i] = guards;
    this.#clean[i] = 1;
    this.neverRuns[i] = never ? 1 : 0;
  }

  /**
   * Per call, 1 when it can run in no scenario (it needs two alternatives of one call, or a
   * value only such a call writes): it is no part of any path that can happen.
   */
  readonly neverRuns: number[] = [];

  /** Call `i` wrote over an earlier write or an initial value: its reads guard nothing. */
  unclean(i: number): void {
    this.#clean[i] = 0;
  }

  guarded(i: number): boolean {
    return (this.#guards[i] ?? null) !== null;
  }

  /** True when calls a and b are guarded by different alternatives of one branching call. */
  exclusive(a: number, b: number): boolean {
    return onOtherAlternatives(this.#guards[a], this.#guards[b]);
  }
}

/** True when two guard maps (branching call -> alternative) hold one branching call on different alternatives. */
function onOtherAlternatives(
  ga: ReadonlyMap<number, number> | null | undefined,
  gb: ReadonlyMap<number, number> | null | undefined,
): boolean {
  if (!ga || !gb) return false;
  for (const [branch, alternative] of ga) {
    const other = gb.get(branch);
    if (other !== undefined && other !== alternative) return true;
  }
  return false;
}
