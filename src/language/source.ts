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

  /** Position of a character offset in the raw text. */
  positionAt(offset: number): Position {
    const text = this.text;
    let line = 1;
    let lineStart = 0;
    const end = Math.min(offset, text.length);
    for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    return { line, column: end - lineStart + 1, offset: end };
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

function childOf(node: AnyNode, token: string): { value: AnyNode; key?: AnyNode } | undefined {
  if (node.type === 'Array') {
    if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
    const element = node.elements[Number(token)];
    return element ? { value: element.value } : undefined;
  }
  if (node.type === 'Object') {
    // JSON.parse keeps the last of duplicate keys, so the last member is the one that counts.
    for (let i = node.members.length - 1; i >= 0; i--) {
      const member = node.members[i];
      if (member && member.name.type === 'String' && member.name.value === token) {
        return { value: member.value, key: member.name };
      }
    }
  }
  return undefined;
}
