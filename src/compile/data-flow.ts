/**
 * SPEC 4, incrementally: calls are added in array order (so a stream of calls can be bound as
 * it arrives) and each read and write is bound against what came before. Forward references
 * wait for `finish()`.
 *
 * Two tries index the writes. The *frontier* trie keeps, per path, only what a newcomer must
 * order itself after: the last writer at that exact path and the readers since. A write at P
 * supersedes everything under P (whoever touches that region later will meet P's writer and
 * inherit its order), so the subtree is dropped, which keeps the work per call amortized
 * constant. The *full* trie keeps every writer, for forward references and hints.
 */
import { error, type PendingDiagnostic } from '../language/diagnostics.js';
import type { JsonObject } from '../language/document.js';
import { formatPath, getAtPath, type Path, type PathSegment, WILDCARD } from '../language/paths.js';
import type { Reference } from '../language/reference.js';
import { nearest } from './nearest.js';
import { PathTrie, type TrieNode } from './path-trie.js';
import type { CallSpec } from './read-call.js';
import { checkStatePath } from './state-schema.js';
import type { BindingKind, Dependency, ReadBinding } from './types.js';

interface Frontier {
  lastWriter: number;
  readers: number[] | null;
}

interface AllWriters {
  writers: number[] | null;
}

export interface DataFlowOptions {
  /** `†input` values; undefined means unknown, and input reads are then not checked. */
  readonly input: JsonObject | undefined;
  /** Initial state values. */
  readonly state: JsonObject;
  readonly stateSchema: JsonObject | undefined;
  readonly stateSchemaPointer: string | undefined;
}

/** A write that overlaps an earlier one: the raw material of W_MULTIPLE_WRITERS. */
export interface OverlappingWrite {
  readonly earlier: number;
  readonly later: number;
  readonly path: string;
}

interface PendingRead {
  readonly call: number;
  readonly slot: number;
  readonly ref: Reference;
  readonly at: string;
  readonly path: Path;
  readonly pointer: string;
}

const NO_WRITER = -1;

export class DataFlow {
  readonly #frontier = new PathTrie<Frontier>(() => ({ lastWriter: NO_WRITER, readers: null }));
  readonly #all = new PathTrie<AllWriters>(() => ({ writers: null }));
  readonly #calls: CallSpec[] = [];
  readonly #dependencies: Dependency[][] = [];
  readonly #reads: ReadBinding[][] = [];
  /** `#marked[j] === i` when call j is already a dependency of call i: dedupe without a Set per call. */
  readonly #marked: number[] = [];
  readonly #forward: PendingRead[] = [];
  readonly overlappingWrites: OverlappingWrite[] = [];

  constructor(
    private readonly options: DataFlowOptions,
    private readonly diagnostics: PendingDiagnostic[],
  ) {}

  get calls(): readonly CallSpec[] {
    return this.#calls;
  }

  /** Binds one call's reads and writes against the calls added before it. */
  add(call: CallSpec): void {
    const i = this.#calls.length;
    this.#calls.push(call);
    this.#dependencies.push([]);
    this.#reads.push([]);
    this.#marked.push(NO_WRITER);
    for (const argument of call.refs) {
      for (const ref of argument.expression.refs) this.#bindRead(i, ref, argument.at);
    }
    if (call.outputPath) for (const path of call.outputPath.paths) this.#bindWrite(i, path);
  }

  /** Binds forward references, then returns every call's reads and dependencies. */
  finish(): { reads: ReadBinding[][]; dependencies: Dependency[][] } {
    for (const pending of this.#forward) this.#bindForward(pending);
    return { reads: this.#reads, dependencies: this.#dependencies };
  }

  #depend(i: number, from: number, kind: Dependency['kind'], path: string): void {
    if (from === i || this.#marked[from] === i) return;
    this.#marked[from] = i;
    this.#dependencies[i]!.push({ from, kind, path });
  }

  #bindRead(i: number, ref: Reference, at: string): void {
    const pointer = this.#calls[i]!.pointer + at;
    const wildcard = ref.segments.indexOf(WILDCARD);
    const segments = (wildcard < 0 ? ref.segments : ref.segments.slice(0, wildcard)) as PathSegment[];
    const path: Path = { root: ref.root, segments };
    const reads = this.#reads[i]!;
    if (ref.root === 'input') {
      const input = this.options.input;
      if (input !== undefined && getAtPath(input, segments) === undefined) {
        this.#unresolved(i, ref, path, pointer);
      }
      reads.push({ ref, at, path, kind: 'input', writers: [] });
      return;
    }
    const writers = this.#frontierOverlapping(segments, i);
    let kind: BindingKind;
    if (writers.length > 0) kind = 'earlier';
    else if (getAtPath(this.options.state, segments) !== undefined) kind = 'initial';
    else {
      this.#forward.push({ call: i, slot: reads.length, ref, at, path, pointer });
      reads.push({ ref, at, path, kind: 'later', writers: [] });
      return;
    }
    const text = formatPath('state', segments);
    for (const w of writers) this.#depend(i, w, 'data', text);
    const node = this.#frontier.ensure(segments).value;
    (node.readers ??= []).push(i);
    reads.push({ ref, at, path, kind, writers });
  }

  #bindWrite(i: number, path: Path): void {
    const segments = path.segments;
    const text = formatPath('state', segments);
    const collect = (entry: Frontier) => {
      if (entry.lastWriter !== NO_WRITER && entry.lastWriter !== i) {
        if (this.#marked[entry.lastWriter] !== i) this.overlappingWrites.push({ earlier: entry.lastWriter, later: i, path: text });
        this.#depend(i, entry.lastWriter, 'order', text);
      }
      if (entry.readers) for (const r of entry.readers) this.#depend(i, r, 'order', text);
    };
    this.#frontier.walk(segments, (node) => collect(node.value));
    const node = this.#frontier.ensure(segments);
    PathTrie.forEachDescendant(node, (n) => collect(n.value));
    node.children = null;
    node.value.readers = null;
    node.value.lastWriter = i;
    const all = this.#all.ensure(segments).value;
    all.writers ??= [];
    if (all.writers[all.writers.length - 1] !== i) all.writers.push(i);
  }

  /** Last writers at, above and below `segments`, other than call `self`. */
  #frontierOverlapping(segments: readonly PathSegment[], self: number): number[] {
    const out: number[] = [];
    const take = (node: TrieNode<Frontier>) => {
      const w = node.value.lastWriter;
      if (w !== NO_WRITER && w !== self) out.push(w);
    };
    const node = this.#frontier.walk(segments, take);
    if (node) PathTrie.forEachDescendant(node, take);
    return out;
  }

  #bindForward(pending: PendingRead): void {
    const { call: i, ref, at, path } = pending;
    const segments = path.segments;
    const writers: number[] = [];
    let selfWrites = false;
    const take = (node: TrieNode<AllWriters>) => {
      const list = node.value.writers;
      if (!list) return;
      // Every writer here comes after the reader (none came before, or the read would be
      // bound already), and writers of one path are chained, so the last one stands for all.
      let k = list.length - 1;
      if (list[k] === i) {
        selfWrites = true;
        k--;
      }
      if (k >= 0) writers.push(list[k]!);
    };
    const node = this.#all.walk(segments, take);
    if (node) PathTrie.forEachDescendant(node, take);
    const reads = this.#reads[i]!;
    if (writers.length > 0) {
      const text = formatPath('state', segments);
      for (const w of writers) this.#depend(i, w, 'data', text);
      reads[pending.slot] = { ref, at, path, kind: 'later', writers };
      return;
    }
    const id = this.#calls[i]!.id;
    if (selfWrites) {
      this.diagnostics.push(
        error('E_CYCLE', pending.pointer, `dependency cycle: ${id} -> ${id} (call ${id} reads ${ref.text}, which only it writes)`, {
          call: id,
          offset: ref.start,
          hint: 'give the value a start in the initial state, or write it in an earlier call',
        }),
      );
      return;
    }
    const schema = this.options.stateSchema;
    if (schema && checkStatePath(schema, segments).declared) {
      reads[pending.slot] = { ref, at, path, kind: 'schema', writers: [] };
      return;
    }
    this.#unresolved(i, ref, path, pending.pointer);
  }

  #unresolved(i: number, ref: Reference, path: Path, pointer: string): void {
    const id = this.#calls[i]!.id;
    const suggestion = this.#nearestKnownPath(path);
    const where = path.root === 'input' ? 'the input does not hold it' : 'no call writes it and the initial state does not hold it';
    this.diagnostics.push(
      error('E_UNRESOLVED', pointer, `${ref.text} is never set: ${where}`, {
        call: id,
        offset: ref.start,
        hint: suggestion
          ? `did you mean ${suggestion}?`
          : path.root === 'input'
            ? 'add it to the input'
            : 'write it with an earlier call\'s _outputPath, or give it in the initial state',
      }),
    );
  }

  /** Walks the known paths segment by segment, correcting likely typos, for "did you mean". */
  #nearestKnownPath(path: Path): string | undefined {
    const base: unknown = path.root === 'input' ? this.options.input : this.options.state;
    let trie: TrieNode<AllWriters> | undefined = path.root === 'state' ? this.#all.root : undefined;
    let value: unknown = base;
    const fixed: PathSegment[] = [];
    let changed = false;
    for (const segment of path.segments) {
      const key = String(segment);
      const candidates = new Set<string>();
      if (trie?.children) for (const k of trie.children.keys()) candidates.add(k);
      if (value !== null && typeof value === 'object') for (const k of Object.keys(value)) candidates.add(k);
      const choice = candidates.has(key) ? key : nearest(key, candidates);
      if (choice === undefined) return undefined;
      if (choice !== key) changed = true;
      fixed.push(typeof segment === 'number' && choice === key ? segment : choice);
      trie = trie?.children?.get(choice);
      value = value !== null && typeof value === 'object' ? (value as JsonObject)[choice] : undefined;
    }
    return changed ? formatPath(path.root, fixed) : undefined;
  }
}
