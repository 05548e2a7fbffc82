/**
 * Which calls can never both run. A call that needs a value only one alternative of a
 * branching call writes (`†state.sunny` of `†state.sunny || †state.rainy`) runs only when
 * that alternative is taken; two calls guarded by different alternatives of the same call
 * are exclusive, and their writes to one path (the join pattern: each side of a branch writes
 * the value a `||` reader joins on) are no conflict.
 */
import type { Path } from '../../language/paths.js';
import type { CallSpec } from '../read/index.js';
import type { ReadBinding } from '../types.js';
import { readsByReference, TakenAlternatives } from './taken-alternatives.js';

type Guards = Map<number, number> | null;

const MAX_GUARDS = 8;

export class ExclusiveBranches {
  readonly #guards: Guards[];

  constructor(calls: readonly CallSpec[], order: readonly number[]) {
    this.#guards = new Array<Guards>(calls.length).fill(null);
    const alternatives = new TakenAlternatives();
    for (const c of order) {
      let guards: Guards = null;
      const add = (branch: number, alternative: number) => {
        guards ??= new Map();
        if (guards.size < MAX_GUARDS && !guards.has(branch)) guards.set(branch, alternative);
      };
      const call = calls[c]!;
      const readOf = readsByReference(call.reads);
      for (let k = 0; k < call.refCount; k++) {
        const expression = call.refExpression(k);
        // In an `||` expression no single reference is needed, so none of them guards.
        if (expression.op === '||' && expression.refs.length > 1) continue;
        for (const ref of expression.refs) {
          const read = readOf(ref);
          if (read?.writers.length !== 1) continue;
          const writer = read.writers[0]!;
          const output = calls[writer]!.outputPath;
          if (output?.op === '||' && output.paths.length > 1) {
            const taken = alternatives.of(writer, output, read.path);
            if (taken >= 0) add(writer, taken);
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
   * Per call, 1 when it runs whenever its guards hold: every value it needs surely has one then
   * (see {@link #surelyThere}); 0 when it may be skipped for some other reason.
   */
  readonly #sure: number[] = [];
  /** Per call, 1 when it had more guards than MAX_GUARDS keeps: its guards say too little. */
  readonly #truncated: number[] = [];
  /** True once some call writes `||` alternatives: before that, no call is guarded. */
  #anyBranch = false;
  readonly #alternatives = new TakenAlternatives();

  /**
   * Guards of call `i` from its reads (all bound but forward references, which `later` says it
   * has). `empty(path)` is true when the initial state holds nothing at that path.
   */
  add(
    i: number,
    call: CallSpec,
    calls: readonly CallSpec[],
    empty: (path: Path) => boolean,
    later: boolean,
  ): void {
    const output = call.outputPath;
    if (!this.#anyBranch) {
      // No call so far branches: nothing can guard this one (the common plan pays nothing).
      this.#guards[i] = null;
      this.#clean[i] = 1;
      this.neverRuns[i] = 0;
      // A value written later may be written on a branch that is not taken.
      this.#sure[i] = later ? 0 : 1;
      this.#truncated[i] = 0;
      if (output?.op === '||' && output.paths.length > 1) this.#anyBranch = true;
      return;
    }
    this.#addOnBranchingPlan(i, call, calls, empty);
  }

  /**
   * {@link add} once some call branches. Apart, so that the variables its closure captures
   * are not allocated for every call of a plan that never branches.
   */
  #addOnBranchingPlan(
    i: number,
    call: CallSpec,
    calls: readonly CallSpec[],
    empty: (path: Path) => boolean,
  ): void {
    // Made from the data flow's columns only here, on plans that branch.
    const readOf = readsByReference(call.reads);
    let guards: Guards = null;
    let never = false;
    let truncated = false;
    let sure = true;
    const add = (branch: number, alternative: number) => {
      guards ??= new Map();
      const other = guards.get(branch);
      // Needing two alternatives of one call at once: it never runs.
      if (other !== undefined && other !== alternative) never = true;
      else if (other === undefined) {
        if (guards.size < MAX_GUARDS) guards.set(branch, alternative);
        else truncated = true;
      }
    };
    for (let k = 0; k < call.refCount; k++) {
      const { op, refs } = call.refExpression(k);
      if (op === '||' && refs.length > 1) {
        // No single reference is needed, but what every one of them needs is (`†state.a ||
        // †state.b` on the two alternatives of a call that is itself on one alternative). A
        // reference whose value only a call that never runs writes offers nothing; when none
        // offers anything, the call never runs either (the dry run skips it in every scenario).
        let common: Map<number, number> | null = null;
        let unguarded = false;
        // Sure only when one alternative is there whatever is taken (a plain call's, the input).
        if (!refs.some((ref) => this.#surelyThere(readOf(ref), null, calls, true))) sure = false;
        for (const ref of refs) {
          const needs = this.#needs(readOf(ref), calls, empty);
          if (needs === null) {
            unguarded = true;
            break;
          }
          if (needs.never) continue;
          if (common === null) common = needs.guards;
          else for (const [b, k] of common) if (needs.guards.get(b) !== k) common.delete(b);
          if (common.size === 0) break;
        }
        if (unguarded) continue;
        if (common === null) never = true;
        else for (const [b, k] of common) add(b, k);
        continue;
      }
      for (const ref of refs) {
        const read = readOf(ref);
        const needs = this.#needs(read, calls, empty);
        if (sure && !this.#surelyThere(read, needs, calls, false)) sure = false;
        if (needs === null) continue;
        for (const [b, k] of needs.guards) add(b, k);
        if (needs.never) never = true;
      }
    }
    this.#guards[i] = guards;
    this.#clean[i] = 1;
    this.neverRuns[i] = never ? 1 : 0;
    this.#sure[i] = sure && !never ? 1 : 0;
    this.#truncated[i] = truncated ? 1 : 0;
  }

  /**
   * True when a read's value is surely there whenever the reader's guards hold: it is not a
   * state read of an earlier call's (the input, the initial state: taken to be there, as a
   * call on no branch is taken to run), or its one writer surely runs then and surely writes
   * it: a plain writer on no branch, or one whose guards the reader took from this read
   * (`needs`), and the alternative read when it branches. `plain` asks for the first kind of
   * writer only (an alternative of a `||`, whose guards the reader does not take).
   */
  #surelyThere(
    read: ReadBinding | undefined,
    needs: { guards: Map<number, number> } | null,
    calls: readonly CallSpec[],
    plain: boolean,
  ): boolean {
    if (read === undefined || read.kind === 'later') return false;
    if (read.kind !== 'earlier') return true;
    if (read.writers.length !== 1) return false;
    const writer = read.writers[0]!;
    if (this.#sure[writer] !== 1) return false;
    const output = calls[writer]!.outputPath;
    const branches = output?.op === '||' && output.paths.length > 1;
    if (plain || needs === null) return !branches && this.#guards[writer] === null;
    return !branches || needs.guards.has(writer);
  }

  /** True when call i runs whenever its guards hold, and they are all kept (see {@link runsWhenever}). */
  sure(i: number): boolean {
    return this.#sure[i] === 1 && this.#truncated[i] !== 1;
  }

  /**
   * True when call `later` surely runs whenever call `earlier` does: it runs whenever its
   * guards hold (see {@link #sure}), and every one of them is one of `earlier`'s (all of them
   * kept), taking the alternative `extra` of branching call `branch` too (-1: none). False when
   * `later` never runs; true when `earlier` never runs.
   */
  runsWhenever(later: number, earlier: number, branch = -1, extra = -1): boolean {
    if (this.neverRuns[earlier] === 1) return true;
    if (!this.sure(later)) return false;
    const mine = this.#guards[later];
    if (!mine) return true;
    const theirs = this.#guards[earlier];
    for (const [b, k] of mine) {
      if (b === branch && k === extra) continue;
      if (theirs?.get(b) !== k) return false;
    }
    return true;
  }

  /**
   * The alternatives a read's value surely comes from (its sole writer's alternative and that
   * writer's own guards), and whether that writer never runs; null when it guards nothing.
   */
  #needs(
    read: ReadBinding | undefined,
    calls: readonly CallSpec[],
    empty: (path: Path) => boolean,
  ): { guards: Map<number, number>; never: boolean } | null {
    if (read?.kind !== 'earlier' || read.writers.length !== 1) return null;
    const writer = read.writers[0]!;
    if (this.#clean[writer] !== 1 || !empty(read.path)) return null;
    const guards = new Map<number, number>();
    const output = calls[writer]!.outputPath;
    if (output?.op === '||' && output.paths.length > 1) {
      const taken = this.#alternatives.of(writer, output, read.path);
      if (taken >= 0) guards.set(writer, taken);
    }
    const inherited = this.#guards[writer];
    if (inherited) for (const [b, k] of inherited) if (!guards.has(b)) guards.set(b, k);
    // Its value comes from a call that never runs alone.
    return { guards, never: this.neverRuns[writer] === 1 };
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

  /**
   * True when calls a and b are guarded by different alternatives of one branching call. A call
   * that never runs is exclusive with none: it needs two alternatives of one call, and which of
   * them its guards hold depends on the order its references were read in, so no edge is
   * dropped on that account.
   */
  exclusive(a: number, b: number): boolean {
    if (this.neverRuns[a] === 1 || this.neverRuns[b] === 1) return false;
    return onOtherAlternatives(this.#guards[a], this.#guards[b]);
  }

  /** The alternative of `branch` that guards call `i`, or -1 (none guards it there, or it never runs). */
  alternativeOn(i: number, branch: number): number {
    if (this.neverRuns[i] === 1) return -1;
    return this.#guards[i]?.get(branch) ?? -1;
  }

  /** A branching call that guards calls a and b by different alternatives, or -1 (see {@link exclusive}). */
  branchBetween(a: number, b: number): number {
    const gb = this.#guards[b];
    for (const [branch, alternative] of this.#guards[a] ?? []) {
      const other = gb?.get(branch);
      if (other !== undefined && other !== alternative) return branch;
    }
    return -1;
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
