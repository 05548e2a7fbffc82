/**
 * The data-flow graph (read after write, write after write, write after read, as if the calls
 * ran one at a time in array order), built incrementally: calls are added in array order (so a
 * stream of calls can be bound as it arrives) and each read and write is bound against what
 * came before. Forward references wait for `finish()`.
 *
 * The *frontier* trie (PathNodes: a node per path, numbered by its canonical text, so that a
 * read written canonically finds its node by its string's number) keeps, per path, only what a
 * newcomer must order itself after: the last writer at that exact path and the readers since
 * (and, for a read, the earlier writers it may still see past writes on branches: seen-writers.ts).
 * A write at P supersedes everything under P (whoever touches that region later meets P's
 * writer and inherits its order), so the subtree is dropped, which keeps the work per call
 * amortized constant. The *full* index of every writer is only needed for forward references
 * and hints, so it is built when first needed.
 */
import type { DiagnosticSink } from '../../language/diagnostics.js';
import { AlternativeReads } from './alternative-reads.js';
import type { JsonObject } from '../../language/document.js';
import { coveredPath, getAtPath, type Path, type PathSegment } from '../../language/paths.js';
import type { Reference, StringParser } from '../../language/reference.js';
import {
  EdgeList,
  EARLIER,
  FlowColumns,
  INITIAL,
  INPUT,
  LATER,
  SCHEMA,
  UNSET,
  PathTrie,
  ReaderLists,
  PathNodes,
  CANONICAL_STATE,
  type ReferenceFacts,
  SINGLE_INPUT,
  SINGLE_STATE,
} from '../storage/index.js';
import { BranchGuards } from './exclusive-branches.js';
import { declaredIn, type PendingRead, selfReadCycle, writersAfter, writesByPath } from './forward-reads.js';
import { ExclusiveWriters } from './exclusive-writers.js';
import { FrontierQueries, NO_WRITER, NO_WRITERS } from './frontier-queries.js';
import { isEmptyObject, stateEmptyAt } from './initial-state.js';
import type { CallSpec } from '../read/index.js';
import { type KnownPaths, reportUnresolved } from './unresolved-reads.js';

export interface DataFlowOptions {
  /** `†input` values; undefined means unknown, and input reads are then not checked. */
  readonly input: JsonObject | undefined;
  /** Initial state values. */
  readonly state: JsonObject;
  readonly stateSchema: JsonObject | undefined;
  /** The compile's parser: paths' nodes are numbered by the strings of their canonical text. */
  readonly parser: StringParser;
  /** What the compile's reader learnt of each reference string (see readCall). */
  readonly facts: ReferenceFacts;
}

/** A write that overlaps an earlier one: the raw material of W_MULTIPLE_WRITERS. */
export interface OverlappingWrite {
  readonly earlier: number;
  readonly later: number;
  readonly path: string;
}

export class DataFlow {
  /** The frontier: per state path, its last writer and its readers since (see PathNodes). */
  readonly #nodes: PathNodes;
  readonly #readers = new ReaderLists();
  #all: PathTrie | undefined;
  readonly #calls: CallSpec[] = [];
  /** `#marked[j] === i` when call j is already a dependency of call i: dedupe without a Set per call. */
  readonly #marked: number[] = [];
  readonly #forward: PendingRead[] = [];
  readonly overlappingWrites: OverlappingWrite[] = [];
  /** Every dependency added, as call indices: what the order is computed from. */
  readonly edges = new EdgeList();
  /** Every read and the kind and path of every edge: what the calls' lists are made from. */
  readonly columns: FlowColumns;
  #adding = -1;
  /** Which calls run only on one alternative of a branching call. */
  readonly #branches = new BranchGuards();
  /**
   * Writers of exactly one path on exclusive alternatives are not ordered after each other
   * (they never both run): the node's writer and these share it, and a reader waits for all.
   */
  readonly #exclusive = new ExclusiveWriters(this.#branches, this.#calls);
  /** The frontier's queries: who a read or write at a node must order itself after. */
  readonly #frontier: FrontierQueries;
  #collected: number[] | null = null;
  /** Per string number of a reference to state written other than canonically, its node. */
  readonly #nodeOfString = new Map<number, number>();
  /** The alternatives of `||` reads, judged together once all are bound (see AlternativeReads). */
  readonly #alternatives = new AlternativeReads((unset, alternative) => {
    if (alternative) this.columns.setKind(unset.read, UNSET);
    reportUnresolved(
      this.#calls[unset.call]!,
      unset.ref,
      unset.path,
      unset.at,
      alternative,
      this.#known,
      this.diagnostics,
    );
  });
  /** What "did you mean" searches. */
  readonly #known: KnownPaths;

  /** The initial state, or null when it holds nothing at all (see stateEmptyAt). */
  readonly #state: JsonObject | null;
  /** {@link stateEmptyAt} for a path, made once rather than for every call. */
  readonly #emptyAt = (path: Path): boolean => stateEmptyAt(this.#state, path.segments);

  constructor(
    private readonly options: DataFlowOptions,
    private readonly diagnostics: DiagnosticSink,
  ) {
    this.#state = isEmptyObject(options.state) ? null : options.state;
    this.#nodes = new PathNodes(options.parser);
    this.#frontier = new FrontierQueries(this.#nodes, this.#exclusive);
    this.columns = new FlowColumns(this.edges, options.facts);
    this.#known = { input: options.input, state: options.state, writes: () => this.#fullIndex().root };
  }

  get calls(): readonly CallSpec[] {
    return this.#calls;
  }

  /**
   * Binds one call's reads and writes against the calls added before it. The compile's facts
   * hold the numbers of the call's reference strings (as readCall left them): a single
   * reference without `[*]` is told by a byte, and one written canonically finds its path's
   * node by its number, without loading any object of its string (on a large plan, a load
   * from anywhere in the heap).
   */
  add(call: CallSpec): void {
    const facts = this.options.facts;
    const i = this.#calls.length;
    this.#calls.push(call);
    call.bindTo(this.columns);
    this.columns.open(i);
    this.#marked.push(NO_WRITER);
    this.#adding = i;
    // The references are read from the compile's columns: no object per reference is made.
    const refCount = call.refCount;
    const forward = this.#forward.length;
    for (let k = 0; k < refCount; k++) {
      const at = call.refAt(k);
      const n = facts.ofCall[k]!;
      const kind = n >= 0 ? facts.kindOf(n) : -1;
      if (kind === CANONICAL_STATE || kind === SINGLE_STATE) {
        // The common read: its node is found by its string's number; its reference is not loaded.
        this.#bindRead(i, n, null, at, null, this.#nodeOfSingle(n, kind));
      } else if (kind === SINGLE_INPUT) {
        const ref = facts.single(n);
        this.#bindInputRead(ref, at, ref as Path, i);
      } else {
        const expression = call.refExpression(k);
        const group = expression.op === '||' ? this.#alternatives.open(expression.refs.length) : -1;
        for (const ref of expression.refs) {
          const path = coveredPath(ref);
          if (ref.root === 'input') this.#bindInputRead(ref, at, path, i, group);
          else this.#bindRead(i, -1, ref, at, path, this.#nodes.ofPath(path.segments), group);
        }
      }
    }
    this.#branches.add(i, call, this.#calls, this.#emptyAt, this.#forward.length > forward);
    const output = call.outputPath;
    if (output) {
      const n = output.refs.length === 1 ? facts.output : -1;
      if (n >= 0) this.#bindWrite(i, output.refs[0]!, this.#nodeOfSingle(n, facts.kindOf(n)));
      else
        for (const ref of output.refs)
          this.#bindWrite(i, ref, this.#nodes.ofPath(ref.segments as PathSegment[]));
    }
    this.columns.close(i);
    this.#adding = -1;
  }

  /** The node of string `n`, one reference to state of kind `kind` (see ReferenceFacts). */
  #nodeOfSingle(n: number, kind: number): number {
    const facts = this.options.facts;
    if (kind === CANONICAL_STATE) return this.#nodes.ofCanonical(n, facts);
    let node = this.#nodeOfString.get(n);
    if (node === undefined) {
      node = this.#nodes.ofPath(facts.single(n).segments as PathSegment[]);
      this.#nodeOfString.set(n, node);
    }
    return node;
  }

  /** Per call, 1 when it runs in no scenario (see BranchGuards.neverRuns). */
  get neverRuns(): readonly number[] {
    return this.#branches.neverRuns;
  }

  /** True when calls a and b can never both run (guarded by different alternatives of one call). */
  exclusive(a: number, b: number): boolean {
    return this.#branches.exclusive(a, b);
  }

  /** True when call i reads a path only a later call writes (bound by `finish`, not before). */
  waitsForLater(i: number): boolean {
    return this.columns.hasLaterRead(i);
  }

  /** Binds the forward references; afterwards every call's reads and dependencies are final. */
  finish(): void {
    for (const pending of this.#forward) this.#bindForward(pending);
  }

  /**
   * An edge into call i: a data edge made by read `read`, or (`read` -1) an order edge made
   * by a write of `written`.
   */
  #depend(i: number, from: number, read: number, written: Reference | null): void {
    if (from === i) return;
    // Collected even when the edge is there already (made by one of i's reads, or an earlier
    // write of its own): what a write on a branch was ordered after is inherited by the
    // writers on the branch's other alternatives, who have no such read.
    this.#collected?.push(from);
    if (this.#marked[from] === i) return;
    this.#marked[from] = i;
    this.edges.add(from, i);
    const late = i !== this.#adding;
    this.columns.addEdge(i, read, written, late);
    if (late) this.#calls[i]!.forget();
  }

  /**
   * An order edge into call i that no state path makes (`code`: EFFECT_EDGE or AFTER_EDGE of
   * FlowColumns), deduped as the data flow's own are; true when it was added.
   */
  addOrderEdge(i: number, from: number, code: number): boolean {
    if (from === i || this.#marked[from] === i) return false;
    this.#marked[from] = i;
    this.edges.add(from, i);
    this.columns.addOrderEdge(i, code);
    this.#calls[i]!.forget();
    return true;
  }

  /** Binds a read of the input; `group` is its `||` expression's (see AlternativeReads), or -1. */
  #bindInputRead(ref: Reference, at: string, path: Path, i: number, group = -1): void {
    const input = this.options.input;
    const read = this.columns.addRead(ref, at, path, INPUT, NO_WRITERS);
    if (input !== undefined && getAtPath(input, path.segments) === undefined) this.#unset(group, i, read, at);
    else if (group >= 0) this.#alternatives.settable(group);
  }

  /**
   * Binds a read of state at `node`: of the one reference of string `n` (`ref` and `path`
   * null), or (`n` -1) of `ref`, covering `path` (the reference up to its first `[*]`), an
   * alternative of `||` expression `group` when it is not -1.
   */
  #bindRead(
    i: number,
    n: number,
    ref: Reference | null,
    at: string,
    path: Path | null,
    node: number,
    group = -1,
  ): void {
    const nodes = this.#nodes;
    const columns = this.columns;
    const frontier = this.#frontier;
    const count = frontier.findOverlapping(node, i);
    const found = frontier.found;
    // The reference's segments are read only where needed: for a read of a path written
    // before, the reference object itself (anywhere in the heap) is never loaded.
    if (
      count === 0 &&
      stateEmptyAt(this.#state, (path ?? this.options.facts.single(n)).segments as PathSegment[])
    ) {
      const read =
        n >= 0
          ? columns.addNumberedRead(n, at, LATER, NO_WRITERS, 0)
          : columns.addRead(ref!, at, path!, LATER, NO_WRITERS);
      this.#forward.push({ call: i, read, pointer: this.#calls[i]!.pointer + at, group });
      return;
    }
    if (group >= 0) this.#alternatives.settable(group);
    const read = columns.readCount;
    for (let k = 0; k < count; k++) this.#depend(i, found[k]!, read, null);
    nodes.attach(node);
    nodes.setReaders(node, this.#readers.add(nodes.readers(node), i));
    const kind = count > 0 ? EARLIER : INITIAL;
    if (n >= 0) columns.addNumberedRead(n, at, kind, found, count);
    else columns.addRead(ref!, at, path!, kind, found, count);
  }

  #bindWrite(i: number, ref: Reference, target: number): void {
    const nodes = this.#nodes;
    const segments = ref.segments as PathSegment[];
    nodes.attach(target);
    if (!stateEmptyAt(this.#state, segments)) this.#branches.unclean(i);
    if (!this.#branches.guarded(i) && !nodes.hasChildren(target) && this.#frontier.nothingAbove(target, i)) {
      // The common write, of a path nothing overlapping was written or read at since: no
      // edge to add, only the node to take (and no closures or lists made for nothing).
      this.#exclusive.forget(target);
      nodes.setReaders(target, -1);
      nodes.setWriter(target, i);
      this.#all = undefined;
      return;
    }
    this.#bindOverlappingWrite(i, ref, target);
  }

  /**
   * {@link #bindWrite} of a path something overlapping was written or read at, or on one
   * alternative of a branch. Apart, so that the variables its closures capture are allocated
   * only for these writes, not for every write.
   */
  #bindOverlappingWrite(i: number, ref: Reference, target: number): void {
    const nodes = this.#nodes;
    const lastWriter = nodes.writer(target);
    // A write on one alternative over writes only on others, with nothing written or read
    // below it since: no order between them, they never both run. It is ordered after what
    // they were ordered after here instead, and after the readers since.
    const exclusive =
      lastWriter !== NO_WRITER &&
      lastWriter !== i &&
      !nodes.hasChildren(target) &&
      this.#branches.guarded(i) &&
      this.#exclusive.exclusiveWithAll(i, target, lastWriter);
    const keepBase = this.#branches.guarded(i);
    const collected: number[] = [];
    if (keepBase) this.#collected = collected;
    const collect = (node: number) => {
      const w = nodes.writer(node);
      if (w !== NO_WRITER && w !== i) {
        this.#branches.unclean(i);
        if (node === target && exclusive) {
          const base = this.#exclusive.base.get(node);
          if (base) for (const from of base) this.#depend(i, from, -1, ref);
        } else {
          for (const v of this.#frontier.writersAt(node)) {
            if (v === i) continue;
            if (this.#marked[v] !== i) this.overlappingWrites.push({ earlier: v, later: i, path: ref.text });
            this.#depend(i, v, -1, ref);
          }
        }
      }
      const readers = nodes.readers(node);
      if (readers >= 0) this.#readers.forEach(readers, (r) => this.#depend(i, r, -1, ref));
    };
    const chain: number[] = [];
    for (let up = target; up >= 0; up = nodes.parentOf(up)) chain.push(up);
    for (let k = chain.length - 1; k >= 0; k--) collect(chain[k]!);
    nodes.forEachDescendant(target, (d) => {
      collect(d);
      this.#exclusive.forget(d);
    });
    nodes.dropBelow(target);
    this.#collected = null;
    const base = collected.length > 1 ? [...new Set(collected)] : collected;
    if (exclusive) this.#exclusive.addExclusiveWriter(i, target, lastWriter, base);
    else this.#exclusive.replaceWriters(i, target, lastWriter, keepBase ? base : null);
    nodes.setReaders(target, -1);
    nodes.setWriter(target, i);
    this.#all = undefined; // the full index, if built, is stale now
  }

  /** Every write of every call so far, by path. */
  #fullIndex(): PathTrie {
    return (this.#all ??= writesByPath(this.#calls));
  }

  #bindForward(pending: PendingRead): void {
    const i = pending.call;
    const columns = this.columns;
    const ref = columns.refOf(pending.read);
    const path = columns.pathOf(pending.read);
    const { writers, selfWrites } = writersAfter(this.#fullIndex(), path.segments, i, this.#exclusive.seen);
    if (writers.length > 0 || selfWrites || declaredIn(this.options.stateSchema, path)) {
      if (pending.group >= 0) this.#alternatives.settable(pending.group);
    } else return this.#unset(pending.group, i, pending.read, columns.atOf(pending.read));
    if (writers.length > 0) {
      columns.setWriters(pending.read, writers);
      this.#calls[i]!.forget();
      for (const w of writers) this.#depend(i, w, pending.read, null);
      return;
    }
    const id = this.#calls[i]!.id;
    if (selfWrites) {
      this.diagnostics.push(selfReadCycle(pending.pointer, id, ref));
      return;
    }
    columns.setKind(pending.read, SCHEMA);
    this.#calls[i]!.forget();
  }

  /** Read `read` of call i (in the string at `at`) can never be set: E_UNRESOLVED, or an alternative of `group`'s. */
  #unset(group: number, i: number, read: number, at: string): void {
    const ref = this.columns.refOf(read);
    const path = this.columns.pathOf(read);
    if (group >= 0) this.#alternatives.unset(group, { call: i, read, ref, path, at });
    else reportUnresolved(this.#calls[i]!, ref, path, at, false, this.#known, this.diagnostics);
  }
}
