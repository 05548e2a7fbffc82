/**
 * Positions in the source text. Parsing a large plan with JSON.parse is ten times faster than
 * building a positioned syntax tree, and positions are only needed when something is wrong,
 * so the tree (momoa) is built lazily, once, on the first diagnostic that needs a position.
 */
import { type AnyNode, type DocumentNode, parse as parseWithPositions } from '@humanwhocodes/momoa';
import { splitPointer } from './pointer.js';

export interface Position {
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units like every editor and tsc. */
  readonly column: number;
  /** 0-based character offset. */
  readonly offset: number;
}

const START: Position = { line: 1, column: 1, offset: 0 };

export class SourceText {
  #tree: DocumentNode | null | undefined;
  #text: string | (() => string);

  /**
   * @param text The document as written, or for a document given as a value, its
   *   `JSON.stringify(value, null, 2)` rendering (made lazily by {@link SourceText.fromValue}).
   */
  private constructor(
    text: string | (() => string),
    /** The name diagnostics print: a file path, `<stdin>` or `<input>`. */
    readonly name: string,
  ) {
    this.#text = text;
  }

  static fromText(text: string, name = '<input>'): SourceText {
    return new SourceText(text, name);
  }

  /** A document that was given as a value: positions point into its pretty-printed JSON. */
  static fromValue(value: unknown, name = '<value>'): SourceText {
    return new SourceText(() => JSON.stringify(value, null, 2) ?? '', name);
  }

  get text(): string {
    if (typeof this.#text === 'function') this.#text = this.#text();
    return this.#text;
  }

  /**
   * The position of the value at `pointer` (or of its key, with `key: true`), moved `offset`
   * characters into it when it is a string. Falls back to the nearest enclosing value that
   * exists, so a pointer to a missing member still lands on its object.
   */
  locate(pointer: string, options: { offset?: number; key?: boolean } = {}): Position {
    const tree = this.tree();
    if (!tree) return START;
    let node: AnyNode = tree.body;
    let keyNode: AnyNode | undefined;
    for (const token of splitPointer(pointer)) {
      const child = childOf(node, token);
      if (!child) {
        keyNode = undefined;
        break;
      }
      node = child.value;
      keyNode = child.key;
    }
    if (options.key && keyNode) return toPosition(keyNode.loc.start);
    const start = toPosition(node.loc.start);
    if (options.offset === undefined || node.type !== 'String') return start;
    return this.insideString(start, options.offset);
  }

  /** Position of a character offset in the raw text (a binary search over the line starts). */
  positionAt(offset: number): Position {
    const text = this.text;
    const starts = this.#lineStarts();
    const end = Math.min(offset, text.length);
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (starts[mid]! <= end) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: end - starts[low]! + 1, offset: end };
  }

  #starts: number[] | undefined;

  /** Offsets where each line begins, found once. */
  #lineStarts(): number[] {
    if (this.#starts) return this.#starts;
    const text = this.text;
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.#starts = starts;
    return starts;
  }

  private tree(): DocumentNode | null {
    if (this.#tree === undefined) {
      try {
        this.#tree = parseWithPositions(this.text, { mode: 'json' });
      } catch {
        // Too deep for a recursive parser, or not JSON at all: positions fall back to 1:1.
        this.#tree = null;
      }
    }
    return this.#tree;
  }

  /** Maps an offset in a string's decoded value to a column, walking its escapes in the raw text. */
  private insideString(start: Position, decodedOffset: number): Position {
    const text = this.text;
    let raw = start.offset + 1; // after the opening quote
    for (let decoded = 0; decoded < decodedOffset && raw < text.length; decoded++) {
      if (text[raw] === '\\') raw += text[raw + 1] === 'u' ? 6 : 2;
      else raw++;
    }
    const moved = raw - start.offset;
    return { line: start.line, column: start.column + moved, offset: raw };
  }
}

function toPosition(loc: { line: number; column: number; offset: number }): Position {
  return { line: loc.line, column: loc.column, offset: loc.offset };
}

type ObjectNode = Extract<AnyNode, { type: 'Object' }>;
type MemberNode = ObjectNode['members'][number];

/**
 * Members of large objects by name, built on the first lookup: diagnostics about many keys of
 * one object (an object of 100k unknown keys) cost a lookup each, not a scan each.
 */
const memberIndexes = new WeakMap<ObjectNode, Map<string, MemberNode>>();

/** Below this many members a scan is cheaper than building an index. */
const INDEX_FROM = 32;

function childOf(node: AnyNode, token: string): { value: AnyNode; key?: AnyNode } | undefined {
  if (node.type === 'Array') {
    if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
    const element = node.elements[Number(token)];
    return element ? { value: element.value } : undefined;
  }
  if (node.type === 'Object') {
    const member = node.members.length < INDEX_FROM ? scanMembers(node, token) : indexOf(node).get(token);
    return member ? { value: member.value, key: member.name } : undefined;
  }
  return undefined;
}

function scanMembers(node: ObjectNode, token: string): MemberNode | undefined {
  // JSON.parse keeps the last of duplicate keys, so the last member is the one that counts.
  for (let i = node.members.length - 1; i >= 0; i--) {
    const member = node.members[i];
    if (member && member.name.type === 'String' && member.name.value === token) return member;
  }
  return undefined;
}

function indexOf(node: ObjectNode): Map<string, MemberNode> {
  let index = memberIndexes.get(node);
  if (!index) {
    index = new Map();
    // Later duplicates overwrite earlier ones, as in JSON.parse.
    for (const member of node.members)
      if (member.name.type === 'String') index.set(member.name.value, member);
    memberIndexes.set(node, index);
  }
  return index;
}
