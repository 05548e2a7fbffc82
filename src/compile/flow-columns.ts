/**
 * Every read and dependency of a plan, held in columns (one entry per read, one per edge)
 * rather than as objects per call. A 100k-call plan has 300k reads and edges; as objects, with
 * their lists, they were about a sixth of what a compile kept, and the collector copied each
 * one twice. The executor needs none of them (it takes its edges from the
 * order), so each call's `reads` and `dependencies` are made from these when first asked for.
 */
import type { Path } from '../language/paths.js';
import type { Reference } from '../language/reference.js';
import type { EdgeList } from './edge-list.js';
import { IntColumn } from './int-column.js';
import type { BindingKind, Dependency, DependencyKind, ReadBinding } from './types.js';

/** Binding kinds by their code in the kind column. */
const KINDS: readonly BindingKind[] = ['earlier', 'initial', 'later', 'schema', 'input'];
export const EARLIER = 0;
export const INITIAL = 1;
export const LATER = 2;
export const SCHEMA = 3;
export const INPUT = 4;

/** In the writer column: no writer. A value >= 0 is the one writer. */
const NO_WRITER = -1;
/** In the writer column: several writers, listed in `#writerLists`. */
const LISTED = -2;

const DATA = 0;
const ORDER = 1;

const NO_READS: readonly ReadBinding[] = Object.freeze([]);
const NO_WRITERS: readonly number[] = Object.freeze([]);
const NO_DEPENDENCIES: readonly Dependency[] = Object.freeze([]);

export class FlowColumns {
  // Per read, in the order bound: a call's reads are contiguous, in its refs' order.
  readonly #ref: Reference[] = [];
  readonly #at: string[] = [];
  /** The path a read covers, for the reads where it is not the reference itself (`[*]`). */
  readonly #coveredPaths = new Map<number, Path>();
  readonly #kind = new IntColumn();
  readonly #writer = new IntColumn();
  readonly #writerLists = new Map<number, readonly number[]>();
  /** Per call, its first read. */
  readonly #firstRead = new IntColumn();

  // Per edge (the EdgeList's from and to): its kind and the path that made it.
  readonly #edgeKind = new IntColumn();
  /** Per edge, the reference that made it: its text is the dependency's path. */
  readonly #edgeRef: Reference[] = [];
  /** Per call, the edges added while it was bound: `[firstEdge, endEdge)`; end -1 while binding. */
  readonly #firstEdge = new IntColumn();
  readonly #endEdge = new IntColumn();
  /** Edges into a call added after it was bound (forward references), by call. */
  readonly #laterEdges = new Map<number, number[]>();

  // The objects made from the columns are immutable, and many are equal (every read of one
  // value by its writer alone, every edge of a fan-out): made once and shared, as the compiler
  // shared them when it made them as it went. A dry run asks for every call's lists.
  /** Per writer call, `[writer]`. */
  readonly #soleWriters = new Map<number, readonly number[]>();
  /** Per call depended on, the last dependency object made on it. */
  readonly #lastDependency = new Map<number, Dependency>();

  constructor(private readonly edges: EdgeList) {}

  /** Call `i` starts binding: its reads and edges follow. */
  open(i: number): void {
    this.#firstRead.push(this.#ref.length);
    this.#firstEdge.push(this.edges.size);
    this.#endEdge.push(-1);
    // Calls are bound in index order, so the columns line up with the calls.
    if (this.#firstRead.size !== i + 1) throw new Error(`FlowColumns: call ${i} opened out of order`);
  }

  /** Call `i` is bound: edges added for it from now on come from forward references. */
  close(i: number): void {
    this.#endEdge.set(i, this.edges.size);
  }

  /**
   * Adds a read of the call being bound; returns its number. Its writers are the first `count`
   * of `writers` (all of them by default), copied.
   */
  addRead(
    ref: Reference,
    at: string,
    path: Path,
    kind: number,
    writers: readonly number[],
    count = writers.length,
  ): number {
    const r = this.#ref.length;
    this.#ref.push(ref);
    this.#at.push(at);
    if (path !== ref) this.#coveredPaths.set(r, path);
    this.#kind.push(kind);
    if (count === 1) this.#writer.push(writers[0]!);
    else {
      this.#writer.push(NO_WRITER);
      if (count > 1) this.#setWriters(r, writers, count);
    }
    return r;
  }

  /** The writers of read `r` are now these (a forward reference, bound at the end). */
  setWriters(r: number, writers: readonly number[]): void {
    this.#setWriters(r, writers, writers.length);
  }

  #setWriters(r: number, writers: readonly number[], count: number): void {
    if (this.#writerLists.size > 0) this.#writerLists.delete(r);
    if (count === 0) this.#writer.set(r, NO_WRITER);
    else if (count === 1) this.#writer.set(r, writers[0]!);
    else {
      this.#writer.set(r, LISTED);
      this.#writerLists.set(r, writers.slice(0, count));
    }
  }

  setKind(r: number, kind: number): void {
    this.#kind.set(r, kind);
  }

  /** The read's reference, the string it is in (pointer inside the arguments), and its path. */
  refOf(r: number): Reference {
    return this.#ref[r]!;
  }
  atOf(r: number): string {
    return this.#at[r]!;
  }
  pathOf(r: number): Path {
    return this.#coveredPaths.get(r) ?? (this.#ref[r] as Path);
  }

  /** Adds the edge the EdgeList just took (its last one). */
  addEdge(to: number, kind: DependencyKind, ref: Reference, late: boolean): void {
    const e = this.edges.size - 1;
    this.#edgeKind.push(kind === 'data' ? DATA : ORDER);
    // The reference, not its text: its text would be a load from the reference (anywhere in the heap).
    this.#edgeRef.push(ref);
    if (!late) return;
    const list = this.#laterEdges.get(to);
    if (list) list.push(e);
    else this.#laterEdges.set(to, [e]);
  }

  /** True when call i has a forward reference (bound or not). */
  hasLaterRead(i: number): boolean {
    const end = this.#readEnd(i);
    for (let r = this.#firstRead.at(i); r < end; r++) if (this.#kind.at(r) === LATER) return true;
    return false;
  }

  /**
   * The writers call i's read of `ref` was bound to, without making its reads as objects
   * (the dry run asks this of every read); empty when the call does not read `ref`.
   */
  writersOfRef(i: number, ref: Reference): readonly number[] {
    const end = this.#readEnd(i);
    for (let r = this.#firstRead.at(i); r < end; r++) if (this.#ref[r] === ref) return this.#writersOf(r);
    return NO_WRITERS;
  }

  /** Call i's reads as objects: a new list each time. */
  readsOf(i: number): readonly ReadBinding[] {
    const first = this.#firstRead.at(i);
    const end = this.#readEnd(i);
    if (first === end) return NO_READS;
    const reads: ReadBinding[] = new Array(end - first);
    for (let r = first; r < end; r++) {
      reads[r - first] = {
        ref: this.#ref[r]!,
        at: this.#at[r]!,
        path: this.pathOf(r),
        kind: KINDS[this.#kind.at(r)]!,
        writers: this.#writersOf(r),
      };
    }
    return reads;
  }

  /** Call i's dependencies as objects, in the order they were added: a new list each time. */
  dependenciesOf(i: number): readonly Dependency[] {
    const first = this.#firstEdge.at(i);
    const end = this.#endEdge.at(i) === -1 ? this.edges.size : this.#endEdge.at(i);
    const later = this.#laterEdges.get(i);
    if (first === end && !later) return NO_DEPENDENCIES;
    // Exact size: a list grown by push reserves 17 slots, which on 100k calls is megabytes.
    const dependencies: Dependency[] = new Array(end - first + (later?.length ?? 0));
    let k = 0;
    for (let e = first; e < end; e++) dependencies[k++] = this.#dependency(e);
    if (later) for (const e of later) dependencies[k++] = this.#dependency(e);
    return dependencies;
  }

  #dependency(e: number): Dependency {
    const from = this.edges.fromOf(e);
    const kind = this.#edgeKind.at(e) === DATA ? 'data' : 'order';
    const path = this.#edgeRef[e]!.text;
    const last = this.#lastDependency.get(from);
    if (last !== undefined && last.kind === kind && last.path === path) return last;
    const dependency: Dependency = { from, kind, path };
    this.#lastDependency.set(from, dependency);
    return dependency;
  }

  #readEnd(i: number): number {
    return i + 1 < this.#firstRead.size ? this.#firstRead.at(i + 1) : this.#ref.length;
  }

  #writersOf(r: number): readonly number[] {
    const w = this.#writer.at(r);
    if (w >= 0) {
      let sole = this.#soleWriters.get(w);
      if (sole === undefined) this.#soleWriters.set(w, (sole = [w]));
      return sole;
    }
    if (w === LISTED) return this.#writerLists.get(r)!.slice();
    return [];
  }
}
