/**
 * The data flow's frontier trie, flat: a node per state path, numbered by the string number of
 * the path's canonical text (`†state.user.tags[0]["a b"]`), its fields in one Int32Array.
 *
 * Models write nearly every reference in that canonical text, so a read of `†state.v123` finds
 * its node by the number its string already got when the call was read: the string table's
 * slot and one entry here, where a node object reached through what is kept per string cost
 * two more loads from anywhere in the heap (on a 100k-call plan each was a miss in the
 * processor's cache, and those misses were a quarter to a third of the compile). A path
 * written another way (`†state.items.0`) or met only as a prefix of another is numbered by its
 * canonical text, made once per string.
 *
 * Overlap (one path a prefix of the other) is "an ancestor, the node itself, or a
 * descendant": each node knows its parent (fixed by its path, found once) and, while it is in
 * the frontier (attached), its children in the order they came.
 */
import type { PathSegment } from '../../language/paths.js';
import type { Reference, StringParser } from '../../language/reference.js';

/**
 * Where a node first seen by its string's number finds that string's one reference: the
 * compile's ReferenceFacts. Declared here, so that this file need not import the facts, which
 * import MAX_CANONICAL_LENGTH from it.
 */
export interface SingleReferences {
  single(n: number): Reference;
}

// Int32 fields per node.
const PARENT = 0;
const WRITER = 1;
const READERS = 2;
const FIRST_CHILD = 3;
const LAST_CHILD = 4;
const NEXT_SIBLING = 5;
const STATE = 6;
const FIELDS = 8;

// A node's STATE.
/** Never seen: its parent is not known yet (the zeros of a new array). */
const UNSEEN = 0;
/** Its parent is known; it is not in the frontier (never was, or a write above dropped it). */
const DETACHED = 1;
const ATTACHED = 2;

const NONE = -1;

/**
 * Longest canonical text a node is numbered by. A deeper path is named by its parent's number
 * and its last key instead (see PathNodes.ofPath): numbering every prefix of a path by its whole
 * text would make a plan of long, deep, distinct paths cost the square of their length.
 */
export const MAX_CANONICAL_LENGTH = 64;

/**
 * The canonical text of a state path (its first `count` segments): `†state`, then `.name` for
 * a key that is an identifier, `[12]` for one that is an array index as JSON writes it,
 * `["a b"]` for any other. Keys compare as strings (index 0 and key "0" are one property), so
 * each key has exactly one form.
 */
export function canonicalText(segments: readonly PathSegment[], count = segments.length): string {
  let out = '†state';
  for (let k = 0; k < count; k++) out += keyText(String(segments[k]));
  return out;
}

function keyText(key: string): string {
  if (isIdentifier(key)) return '.' + key;
  if (isIndex(key)) return '[' + key + ']';
  return '[' + JSON.stringify(key) + ']';
}

function isIdentifier(key: string): boolean {
  if (key.length === 0 || !isIdentifierStart(key.charCodeAt(0))) return false;
  for (let k = 1; k < key.length; k++) {
    const code = key.charCodeAt(k);
    if (!isIdentifierStart(code) && !isDigit(code) && code !== 45) return false;
  }
  return true;
}

/** `0` or digits without a leading zero, short enough to be an exact number. */
function isIndex(key: string): boolean {
  if (key.length === 0 || key.length > 15 || (key.length > 1 && key.charCodeAt(0) === 48)) return false;
  for (let k = 0; k < key.length; k++) if (!isDigit(key.charCodeAt(k))) return false;
  return true;
}

function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export class PathNodes {
  #fields = new Int32Array(FIELDS * 1024);
  /** Per node, its path's segments: what its parent is found from, once. */
  readonly #segments: (readonly PathSegment[] | undefined)[] = [];
  readonly #chain: number[] = [];
  /** The root: `†state`, the whole state object. */
  readonly root: number;

  constructor(private readonly parser: StringParser) {
    this.root = parser.numberOnly('†state');
    this.#grow(this.root);
    this.#fields[FIELDS * this.root + PARENT] = NONE;
    this.#attachOne(this.root);
  }

  /**
   * The node of the string numbered `n`, written in its path's canonical text: `n` itself.
   * Its one reference's segments are read from `facts` only the first time the node is seen.
   */
  ofCanonical(n: number, facts: SingleReferences): number {
    this.#grow(n);
    if (this.#fields[FIELDS * n + STATE] === UNSEEN && this.#segments[n] === undefined)
      this.#segments[n] = facts.single(n).segments as readonly PathSegment[];
    return n;
  }

  /**
   * The node of a path given by its segments (the first `count`): numbered by its canonical
   * text up to MAX_CANONICAL_LENGTH characters, and below that by its parent's number and its
   * key (a name no reference string can be, for it does not start with `†`).
   */
  ofPath(segments: readonly PathSegment[], count = segments.length): number {
    // The parent of every top-level path: no text to make and look up.
    if (count === 0) return this.root;
    let named = 0;
    let text = '†state';
    let next = '';
    for (; named < count; named++) {
      next = keyText(String(segments[named]));
      if (text.length + next.length > MAX_CANONICAL_LENGTH) break;
      text += next;
    }
    let id = this.parser.numberOnly(text);
    this.#grow(id);
    if (this.#fields[FIELDS * id + STATE] === UNSEEN && this.#segments[id] === undefined)
      this.#segments[id] = named === segments.length ? segments : segments.slice(0, named);
    for (; named < count; named++) {
      const parent = id;
      id = this.parser.numberOnly(`${parent}\u0001${String(segments[named])}`);
      this.#grow(id);
      if (this.#fields[FIELDS * id + STATE] === UNSEEN) {
        this.#fields[FIELDS * id + PARENT] = parent;
        this.#fields[FIELDS * id + STATE] = DETACHED;
      }
    }
    return id;
  }

  isAttached(id: number): boolean {
    return this.#fields[FIELDS * id + STATE] === ATTACHED;
  }

  /** The node's parent, found (and kept) the first time it is asked for; -1 for the root. */
  parentOf(id: number): number {
    const base = FIELDS * id;
    if (this.#fields[base + STATE] !== UNSEEN) return this.#fields[base + PARENT]!;
    const segments = this.#segments[id]!;
    const parent = this.ofPath(segments, segments.length - 1);
    // ofPath may have grown the array: index it afresh.
    this.#fields[base + PARENT] = parent;
    this.#fields[base + STATE] = DETACHED;
    return parent;
  }

  writer(id: number): number {
    return this.#fields[FIELDS * id + WRITER]!;
  }

  setWriter(id: number, call: number): void {
    this.#fields[FIELDS * id + WRITER] = call;
  }

  readers(id: number): number {
    return this.#fields[FIELDS * id + READERS]!;
  }

  setReaders(id: number, head: number): void {
    this.#fields[FIELDS * id + READERS] = head;
  }

  hasChildren(id: number): boolean {
    return this.#fields[FIELDS * id + FIRST_CHILD]! !== NONE;
  }

  /**
   * Puts the node in the frontier, with its ancestors that are not: each fresh (no writer, no
   * readers, no children), after its parent's other children. Iterative: paths can be deep.
   */
  attach(id: number): void {
    if (this.isAttached(id)) return;
    // A scratch list, counted: not an array per node attached.
    const chain = this.#chain;
    let length = 0;
    for (let up = id; !this.isAttached(up); up = this.parentOf(up)) chain[length++] = up;
    for (let k = length - 1; k >= 0; k--) this.#attachOne(chain[k]!);
  }

  #attachOne(id: number): void {
    const fields = this.#fields;
    const base = FIELDS * id;
    fields[base + WRITER] = NONE;
    fields[base + READERS] = NONE;
    fields[base + FIRST_CHILD] = NONE;
    fields[base + LAST_CHILD] = NONE;
    fields[base + NEXT_SIBLING] = NONE;
    fields[base + STATE] = ATTACHED;
    const parent = fields[base + PARENT]!;
    if (parent === NONE) return;
    const last = fields[FIELDS * parent + LAST_CHILD]!;
    if (last === NONE) fields[FIELDS * parent + FIRST_CHILD] = id;
    else fields[FIELDS * last + NEXT_SIBLING] = id;
    fields[FIELDS * parent + LAST_CHILD] = id;
  }

  /**
   * Visits every node strictly below `id` in the frontier (iteratively), in the order a stack
   * of each node's children in the order they came gives: the last child first, then its
   * subtree.
   */
  forEachDescendant(id: number, visit: (node: number) => void): void {
    const fields = this.#fields;
    let first = fields[FIELDS * id + FIRST_CHILD]!;
    if (first === NONE) return;
    const stack: number[] = [];
    for (let c = first; c !== NONE; c = fields[FIELDS * c + NEXT_SIBLING]!) stack.push(c);
    while (stack.length > 0) {
      const next = stack.pop()!;
      visit(next);
      first = fields[FIELDS * next + FIRST_CHILD]!;
      for (let c = first; c !== NONE; c = fields[FIELDS * c + NEXT_SIBLING]!) stack.push(c);
    }
  }

  /** Drops everything below `id` from the frontier: a write at `id` supersedes it. */
  dropBelow(id: number): void {
    const fields = this.#fields;
    const base = FIELDS * id;
    if (fields[base + FIRST_CHILD] === NONE) return;
    this.forEachDescendant(id, (d) => {
      fields[FIELDS * d + STATE] = DETACHED;
    });
    fields[base + FIRST_CHILD] = NONE;
    fields[base + LAST_CHILD] = NONE;
  }

  #grow(id: number): void {
    // Pushed, not assigned past the end: an array assigned far past its end becomes a dictionary.
    while (this.#segments.length <= id) this.#segments.push(undefined);
    const needed = FIELDS * (id + 1);
    if (needed <= this.#fields.length) return;
    let length = this.#fields.length * 2;
    while (length < needed) length *= 2;
    const bigger = new Int32Array(length);
    bigger.set(this.#fields);
    this.#fields = bigger;
  }
}
