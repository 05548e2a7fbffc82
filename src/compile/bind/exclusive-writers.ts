/**
 * The writers of one path that sit on exclusive alternatives of a branch (the join pattern:
 * each alternative's call writes the value a later reader joins on), kept per frontier node:
 * the co-writers beside the node's last writer, the calls those writers were ordered after
 * there (an exclusive writer inherits them), and a summary that answers "is this new writer
 * exclusive with every writer here?" without comparing it with each of them.
 *
 * The summary holds when every writer at the node is guarded by a different alternative of one
 * branching call: a newcomer guarded by another alternative of that call is then exclusive with
 * all of them, in one lookup. Otherwise the writers are compared one by one, at most
 * {@link MAX_WRITERS_COMPARED} of them; past that the write is taken to overlap them (ordered
 * after them, with W_MULTIPLE_WRITERS): more order than needed, never less.
 */
import type { CallSpec } from '../read/index.js';
import type { BranchGuards } from './exclusive-branches.js';
import { SeenWriters } from './seen-writers.js';

/** How many writers of one path a new writer is compared with one by one (see the file's comment). */
export const MAX_WRITERS_COMPARED = 1_000;

/** Every writer at a node is on a different alternative of `branch`: the ones in `used`. */
interface OneBranch {
  readonly branch: number;
  readonly used: Set<number>;
}

export class ExclusiveWriters {
  /** Per node, the exclusive writers beside its last writer (in array order). */
  readonly coWriters = new Map<number, number[]>();
  /**
   * Per node, the earlier writers a read there may still see besides these (see
   * seen-writers.ts), in array order: kept and dropped with the rest.
   */
  readonly earlier = new Map<number, readonly number[]>();
  /** Per node, the calls its writers were ordered after there, each once. */
  readonly base = new Map<number, number[]>();
  /** Per node whose base grew by exclusive writes, the calls in it: dedupes what is added. */
  readonly #inBase = new Map<number, Set<number>>();
  /** Per node with co-writers, the summary, while it holds. */
  readonly #oneBranch = new Map<number, OneBranch>();
  readonly #branches: BranchGuards;
  /** Which earlier writers a write hides (and which a read may still see). */
  readonly seen: SeenWriters;

  constructor(branches: BranchGuards, calls: readonly CallSpec[]) {
    this.#branches = branches;
    this.seen = new SeenWriters(branches, calls);
  }

  /**
   * True when call `i` is exclusive with every writer at `node`, whose last writer is
   * `lastWriter` (not `i`). When it is, the caller adds `i` as the node's new last writer
   * ({@link addExclusiveWriter}): the summary already counts it.
   */
  exclusiveWithAll(i: number, node: number, lastWriter: number): boolean {
    const branches = this.#branches;
    const co = this.coWriters.get(node);
    if (!co) {
      if (!branches.exclusive(i, lastWriter)) return false;
      const branch = branches.branchBetween(i, lastWriter);
      const used = new Set([branches.alternativeOn(lastWriter, branch), branches.alternativeOn(i, branch)]);
      this.#oneBranch.set(node, { branch, used });
      return true;
    }
    const summary = this.#oneBranch.get(node);
    if (summary) {
      const alternative = branches.alternativeOn(i, summary.branch);
      if (alternative >= 0 && !summary.used.has(alternative)) {
        summary.used.add(alternative);
        return true;
      }
    }
    // The summary does not decide: compare one by one, within the budget.
    if (co.length + 1 > MAX_WRITERS_COMPARED) return false;
    if (!branches.exclusive(i, lastWriter)) return false;
    for (const w of co) if (w !== i && !branches.exclusive(i, w)) return false;
    // Exclusive, but not by an alternative of the summary's branch no one used: it no longer holds.
    this.#oneBranch.delete(node);
    return true;
  }

  /**
   * A write of call `i` at `node` on one alternative over writers only on others: `lastWriter`
   * stays beside it, the earlier writers a read may still see are those i (or the join it
   * completes) does not hide, and what the write was ordered after (`collected`) joins the
   * node's base, each call once (an exclusive writer collects the base it inherits again:
   * appending all of it made the base, and every later writer's walk over it, grow with each
   * writer).
   */
  addExclusiveWriter(i: number, node: number, lastWriter: number, collected: readonly number[]): void {
    const co = this.coWriters.get(node);
    // Asked before `lastWriter` joins the co-writers: the join is theirs and i's.
    this.#setEarlier(node, this.seen.after(i, this.earlier.get(node), co, lastWriter, true));
    if (co) co.push(lastWriter);
    else this.coWriters.set(node, [lastWriter]);
    if (collected.length === 0) return;
    const base = this.base.get(node);
    if (!base) {
      this.base.set(node, [...collected]);
      return;
    }
    let members = this.#inBase.get(node);
    if (!members) this.#inBase.set(node, (members = new Set(base)));
    for (const from of collected) {
      if (members.has(from)) continue;
      members.add(from);
      base.push(from);
    }
  }

  /**
   * A write of call `i` at `node`, ordered after its writers (`lastWriter` and the co-writers):
   * they are superseded, but for the ones a read may still see (see SeenWriters.after) when i
   * does not write; `base`: what it was ordered after, kept when it is on a branch.
   */
  replaceWriters(i: number, node: number, lastWriter: number, base: number[] | null): void {
    const earlier = this.seen.after(i, this.earlier.get(node), this.coWriters.get(node), lastWriter, false);
    this.forget(node);
    if (base) this.base.set(node, base);
    this.#setEarlier(node, earlier);
  }

  /** The earlier writers a read at `node` may still see (none: an empty list). */
  #setEarlier(node: number, earlier: readonly number[]): void {
    if (earlier.length > 0) this.earlier.set(node, earlier);
    else if (this.earlier.size > 0) this.earlier.delete(node);
  }

  /** Drops what is kept for `node` (a write at or above it superseded its writers). */
  forget(node: number): void {
    if (this.coWriters.size > 0) this.coWriters.delete(node);
    if (this.earlier.size > 0) this.earlier.delete(node);
    if (this.base.size > 0) this.base.delete(node);
    if (this.#inBase.size > 0) this.#inBase.delete(node);
    if (this.#oneBranch.size > 0) this.#oneBranch.delete(node);
  }
}
