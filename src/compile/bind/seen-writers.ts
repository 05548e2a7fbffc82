/**
 * Which earlier writers of a path a read may still see. A write on one alternative of a branch
 * may not happen, and a read after it then sees what was there before: the value of an earlier
 * writer on another branching call's alternative (`w1` on `†state.a` of `c1`, `w2` on
 * `†state.c` of `c2`, both writing `†state.x`: when `c2` takes `†state.d`, a reader of
 * `†state.x` reads `w1`'s value). So per path, beside its last writer and the exclusive writers
 * beside it (exclusive-writers.ts), the frontier keeps the earlier writers a read may still
 * see, and a read depends on them too.
 *
 * An earlier writer stops being seen once a write that surely happens whenever it did covers
 * the path: a plain write on no branch, or one on alternatives its own guards include (the
 * same chain of alternatives, or a shorter one: see BranchGuards.runsWhenever); or the writers
 * of one path on every alternative of one branching call, each on nothing but its alternative
 * (the join whose every alternative overwrites a default), when that call runs whenever the
 * earlier writer did. Writers on alternatives of the same call still hide nothing of each other:
 * they never both run.
 *
 * Every list is bounded: a path keeps at most {@link MAX_SEEN_EARLIER} earlier writers (the
 * latest; every one dropped is still waited for, through the write-after-write order that
 * chains it to the later writers, and the run reads the state as it then is), and the join's
 * writers are looked at together only up to {@link MAX_JOIN} of them (past that, none is taken
 * to hide anything: a read may name a writer it never sees, never miss one it does).
 */
import type { CallSpec } from '../read/index.js';
import type { TrieNode } from '../storage/index.js';
import type { BranchGuards } from './exclusive-branches.js';

/** How many earlier writers of one path a read may still see, at most (the latest are kept). */
export const MAX_SEEN_EARLIER = 32;
/** How many writers of one path on alternatives of one branching call are judged together, at most. */
export const MAX_JOIN = 64;

const NONE: readonly number[] = [];
/** No writer at a node (PathNodes.writer). */
const NO_WRITER = -1;

export class SeenWriters {
  readonly #branches: BranchGuards;
  readonly #calls: readonly CallSpec[];
  /**
   * Per node of the full index (forward-reads.ts) with two or more writers, what a forward read
   * of it by a call that is not one of them waits for: the same for every such read, so found
   * once (a path written on many branches and read by many calls before them would look back
   * over the same writers for each). A new index makes new nodes: nothing here goes stale.
   */
  readonly forward = new WeakMap<TrieNode, readonly number[]>();

  constructor(branches: BranchGuards, calls: readonly CallSpec[]) {
    this.#branches = branches;
    this.#calls = calls;
  }

  /** True when calls a and b never both run (BranchGuards.exclusive). */
  exclusive(a: number, b: number): boolean {
    return this.#branches.exclusive(a, b);
  }

  /** True when call `later` surely writes its path whenever call `earlier` ran: no read sees `earlier`'s. */
  hides(later: number, earlier: number): boolean {
    return later !== earlier && this.#surelyWrites(later) && this.#branches.runsWhenever(later, earlier);
  }

  /**
   * True when call c surely writes whatever runs before it: a plain write on no branch, which
   * runs whenever its guards (none) hold. Nothing written earlier is seen past it.
   */
  hidesAll(c: number): boolean {
    return !this.#branches.guarded(c) && this.#surelyWrites(c) && this.#branches.sure(c);
  }

  /**
   * The earlier writers a read of a path may still see once call `i` writes it, in array
   * order: of `earlier` (those it could see before), and, when `i` is ordered after the path's
   * writers (`exclusive` false), of those writers (`co` and `last`); but the ones `i`, or the
   * join it completes (`exclusive` true), surely writes over.
   */
  after(
    i: number,
    earlier: readonly number[] | undefined,
    co: readonly number[] | undefined,
    last: number,
    exclusive: boolean,
  ): readonly number[] {
    // The common case, a write on no branch that surely happens: it hides them all, nothing made.
    if (this.hidesAll(i)) return NONE;
    const kept: number[] = [];
    const join = exclusive && earlier !== undefined ? this.joinOf(i, last, co) : -1;
    const keep = (w: number) => {
      if (w === i || this.hides(i, w) || (join >= 0 && this.#branches.runsWhenever(join, w))) return;
      kept.push(w);
    };
    if (earlier) for (const w of earlier) keep(w);
    if (!exclusive && last !== NO_WRITER) {
      if (co) for (const w of co) keep(w);
      keep(last);
    }
    if (kept.length > MAX_SEEN_EARLIER) kept.splice(0, kept.length - MAX_SEEN_EARLIER);
    return kept.length === 0 ? NONE : kept;
  }

  /** True when the join `joinOf` found (-1: none) surely writes whenever call `earlier` ran. */
  joinHides(join: number, earlier: number): boolean {
    return join >= 0 && this.#branches.runsWhenever(join, earlier);
  }

  /**
   * The branching call whose every alternative one of the writers of a path (`a`, `b` and
   * `more`, exclusive with each other) surely writes when it is taken, or -1. Such a join
   * writes the path whenever that call runs.
   */
  joinOf(a: number, b: number, more: readonly number[] | undefined): number {
    const branches = this.#branches;
    const size = (more?.length ?? 0) + 2;
    const branch = branches.branchBetween(a, b);
    const count = branch >= 0 ? this.#alternatives(branch) : 0;
    if (count === 0 || count > size || size > MAX_JOIN) return -1;
    const covered = new Uint8Array(count);
    let missing = count;
    const take = (w: number) => {
      const k = branches.alternativeOn(w, branch);
      if (k < 0 || covered[k] === 1 || !this.#surelyWrites(w)) return;
      // It runs whenever the call takes k: its guards are that alternative and the call's own.
      if (!branches.runsWhenever(w, branch, branch, k)) return;
      covered[k] = 1;
      missing--;
    };
    take(a);
    take(b);
    if (more) for (const w of more) take(w);
    return missing === 0 ? branch : -1;
  }

  /** How many `||` alternatives call c writes (0 when it does not branch). */
  #alternatives(c: number): number {
    const output = this.#calls[c]!.outputPath;
    return output?.op === '||' ? output.paths.length : 0;
  }

  /** True when call c writes every path of its output whenever it succeeds: it does not branch. */
  #surelyWrites(c: number): boolean {
    const output = this.#calls[c]!.outputPath;
    return output !== null && (output.op !== '||' || output.paths.length === 1);
  }
}
