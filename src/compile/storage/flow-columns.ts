/**
 * Every read and dependency of a plan, held in columns (one entry per read, one per edge)
 * rather than as objects per call. A 100k-call plan has 300k reads and edges; as objects, with
 * their lists, they were about a sixth of what a compile kept, and the collector copied each
 * one twice. The executor needs none of them (it takes its edges from the
 * order), so each call's `reads` and `dependencies` are made from these when first asked for.
 */
import type { Path } from '../../language/paths.js';
import type { Reference } from '../../language/reference.js';
import type { EdgeList } from './edge-list.js';
import { IntColumn } from './int-column.js';
import type { ReferenceFacts } from './reference-facts.js';
import type { BindingKind, Dependency, OrderReason, ReadBinding } from '../types.js';

/** Binding kinds by their code in the kind column. */
const KINDS: readonly BindingKind[] = ['earlier', 'initial', 'later', 'schema', 'input', 'unset'];
export const EARLIER = 0;
export const INITIAL = 1;
export const LATER = 2;
export const SCHEMA = 3;
export const INPUT = 4;
export const UNSET = 5;

/** In the writer column: no writer. A value >= 0 is the one writer. */
const NO_WRITER = -1;
/** In the writer column: several writers, listed in `#writerLists`. */
const LISTED = -2;

const DATA = 0;
const ORDER = 1;
/** Edge kinds of program order (see OrderReason): made by no state path. */
export const EFFECT_EDGE = 2;
export const AFTER_EDGE = 3;
const REASONS: readonly (OrderReason | undefined)[] = [undefined, undefined, 'effect', 'after'];

const NO_READS: readonly ReadBinding[] = Object.freeze([]);
const NO_WRITERS: readonly number[] = Object.freeze([]);
const NO_DEPENDENCIES: readonly Dependency[] = Object.freeze([]);

export class FlowColumns {
  // Per read, in the order bound: a call's reads are contiguous, in its refs' order.
  /**
   * The number of the reference string read, when the read is its one reference (the facts
   * give the reference): a number, not the reference, so that binding a read never loads it
   * from anywhere in the heap. -1 for the other reads, whose reference is in #otherRefs.
   */
  readonly #refNumber = new IntColumn();
  readonly #otherRefs = new Map<number, Reference>();
  /**
   * Each read's reference, filled in one pass when first asked for (see ArgumentColumns'
   * expressions): a loop of lookups in the facts' array, which then stays in the cache.
   */
  readonly #ref: Reference[] = [];
  readonly #at: string[] = [];
  /** The path a read covers, for the reads where it is not the reference itself (`[*]`). */
  readonly #coveredPaths = new Map<number, Path>();
  readonly #kind = new IntColumn();
  readonly #writer = new IntColumn();
  readonly #writerLists = new Map<number, readonly number[]>();
  /** Per call, its first read. */
  readonly #firstRead = new IntColumn();

  // Per edge (the EdgeList's from and to): its kind and what made it, whose text is its path.
  readonly #edgeKind = new IntColumn();
  /** Per edge: for a data edge the read that made it, for an order edge its write in #writeRefs. */
  readonly #edgeSource = new IntColumn();
  /** The references written that made order edges. */
  readonly #writeRefs: Reference[] = [];
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

  constructor(
    private readonly edges: EdgeList,
    private readonly facts: ReferenceFacts,
  ) {}

  /** How many reads so far: the number the next read gets. */
  get readCount(): number {
    return this.#refNumber.size;
  }

  /** Call `i` starts binding: its reads and edges follow. */
  open(i: number): void {
    this.#firstRead.push(this.#refNumber.size);
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
   * Adds a read of the call being bound, of the one reference of string `n` (see
   * ReferenceFacts); returns its number. Its writers are the first `count` of `writers`,
   * copied.
   */
  addNumberedRead(n: number, at: string, kind: number, writers: readonly number[], count: number): number {
    const r = this.#refNumber.size;
    this.#refNumber.push(n);
    this.#at.push(at);
    this.#addBinding(r, kind, writers, count);
    return r;
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
    const r = this.#refNumber.size;
    this.#refNumber.push(-1);
    this.#otherRefs.set(r, ref);
    this.#at.push(at);
    if (path !== ref) this.#coveredPaths.set(r, path);
    this.#addBinding(r, kind, writers, count);
    return r;
  }

  #addBinding(r: number, kind: number, writers: readonly number[], count: number): void {
    this.#kind.push(kind);
    if (count === 1) this.#writer.push(writers[0]!);
    else {
      this.#writer.push(NO_WRITER);
      if (count > 1) this.#setWriters(r, writers, count);
    }
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
    if (r >= this.#ref.length) this.#fillRefs();
    return this.#ref[r]!;
  }

  #fillRefs(): void {
    const numbers = this.#refNumber;
    for (let r = this.#ref.length; r < numbers.size; r++) {
      const n = numbers.at(r);
      this.#ref.push(n >= 0 ? this.facts.single(n) : this.#otherRefs.get(r)!);
    }
  }
  atOf(r: number): string {
    return this.#at[r]!;
  }
  pathOf(r: number): Path {
    return this.#coveredPaths.get(r) ?? (this.refOf(r) as Path);
  }

  /**
   * Adds the edge the EdgeList just took (its last one): a data edge made by read `read`, or
   * (`read` -1) an order edge made by a write of `written`. Not the path's text, which would be
   * a load from the reference (anywhere in the heap) for every edge.
   */
  addEdge(to: number, read: number, written: Reference | null, late: boolean): void {
    const e = this.edges.size - 1;
    if (read >= 0) {
      this.#edgeKind.push(DATA);
      this.#edgeSource.push(read);
    } else {
      this.#edgeKind.push(ORDER);
      this.#edgeSource.push(this.#writeRefs.length);
      this.#writeRefs.push(written!);
    }
    if (!late) return;
    const list = this.#laterEdges.get(to);
    if (list) list.push(e);
    else this.#laterEdges.set(to, [e]);
  }

  /**
   * Adds the edge the EdgeList just took, into call `to`: one of program order (`code`
   * EFFECT_EDGE or AFTER_EDGE). Added while the call is bound, or right after (nothing added
   * since), it is one of the call's own; else it is late, as a forward reference's. Returns
   * whether it is late.
   */
  addOrderEdge(to: number, code: number): boolean {
    const e = this.edges.size - 1;
    this.#edgeKind.push(code);
    this.#edgeSource.push(-1);
    if (to === this.#endEdge.size - 1) {
      const end = this.#endEdge.at(to);
      if (end === -1) return false;
      if (end === e) {
        this.#endEdge.set(to, e + 1);
        return false;
      }
    }
    const list = this.#laterEdges.get(to);
    if (list) list.push(e);
    else this.#laterEdges.set(to, [e]);
    return true;
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
    for (let r = this.#firstRead.at(i); r < end; r++) if (this.refOf(r) === ref) return this.#writersOf(r);
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
        ref: this.refOf(r),
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
    const code = this.#edgeKind.at(e);
    if (code >= EFFECT_EDGE) return { from, kind: 'order', path: '', reason: REASONS[code]! };
    const kind = code === DATA ? 'data' : 'order';
    const source = this.#edgeSource.at(e);
    const path = kind === 'data' ? this.refOf(source).text : this.#writeRefs[source]!.text;
    const last = this.#lastDependency.get(from);
    if (last !== undefined && last.kind === kind && last.path === path) return last;
    const dependency: Dependency = { from, kind, path };
    this.#lastDependency.set(from, dependency);
    return dependency;
  }

  #readEnd(i: number): number {
    return i + 1 < this.#firstRead.size ? this.#firstRead.at(i + 1) : this.#refNumber.size;
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
