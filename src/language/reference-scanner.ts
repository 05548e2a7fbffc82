/**
 * The reference grammar:
 *
 *     expr    := ref ( ws op ws ref )*        one kind of op per expression
 *     op      := "||" | "&&"
 *     ref     := "†" root ( "." segment | "[" digits "]" | "[" json-string "]" )*
 *     root    := "input" | "state"   ("item" and "index": see loop-reference.ts)
 *     segment := [A-Za-z_$][A-Za-z0-9_$-]* | digits
 *
 * plus, in reads, `[*]` (every element) and the JSONPath selections of selection.ts
 * (`[?(@.price < 300)]`, `[0:3]`, `[-1]`, `[0,2]`, `..title`). A hand-written scanner rather
 * than a regex, so every error carries the exact offset inside the string.
 *
 * This file is the scanner (the shapes it produces are reference-shapes.ts); reference.ts is how
 * the rest of planmode asks for a parse (and parses each distinct string once).
 */
import { exactCopy } from './json/index.js';
import {
  FORBIDDEN_SEGMENTS,
  type PathSegment,
  type Root,
  type Selection,
  WILDCARD,
  type Wildcard,
} from './paths.js';
import type { Operator, ParsedString, ParseError, Reference } from './reference-shapes.js';
import { type ScannedSelection, scanBracketSelection, scanDescent } from './selection.js';

export type { Expression, Operator, ParsedString, ParseError, Reference } from './reference-shapes.js';

export const DAGGER = '†';

const DOT = 46;
const OPEN_BRACKET = 91;
const COLON = 58;
const COMMA = 44;

// Character tests by code, not regex: the scanner runs over every reference of every call.
// (charCodeAt of a position past the end is NaN, which every test below rejects.)
function isIdentStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}
function isIdentPart(code: number): boolean {
  return isIdentStart(code) || isDigit(code) || code === 45;
}
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The character at `at` for a message, or the end of the string. */
export function describe(text: string, at: number): string {
  return at >= text.length ? 'the end of the string' : `'${text[at]}'`;
}

/**
 * Arrays grown by push reserve 17 slots; on a 100k-call plan that waste dominated memory. The
 * scanner collects into these scratch arrays and keeps exact-size copies (it never re-enters).
 */
const scratchRefs: Reference[] = [];
const scratchSegments: (PathSegment | Wildcard)[] = [];

/**
 * The common shape, `†state.name` or `†input.a.b` (names after dots, nothing else), read
 * without the general scanner. Anything else, errors included, is left to the scanner
 * (undefined), which reports it with its offset.
 */
function scanNames(text: string): ParsedString | undefined {
  let root: Root;
  if (text.startsWith('state', 1)) root = 'state';
  else if (text.startsWith('input', 1)) root = 'input';
  else return undefined;
  const segments = scratchSegments;
  let count = 0;
  let pos = 6;
  const end = text.length;
  if (pos === end) return undefined;
  while (pos < end) {
    if (text.charCodeAt(pos) !== DOT || !isIdentStart(text.charCodeAt(pos + 1))) return undefined;
    const start = pos + 1;
    pos += 2;
    while (isIdentPart(text.charCodeAt(pos))) pos++;
    const name = text.slice(start, pos);
    // A forbidden name goes to the scanner, which says why.
    if (FORBIDDEN_SEGMENTS.has(name)) return undefined;
    segments[count++] = name;
  }
  const ref: Reference = { root, segments: exactCopy(segments, count), text, start: 0 };
  return { kind: 'expression', expression: { op: null, refs: [ref] } };
}

class ExpressionScanner {
  private pos = 0;
  private text = '';

  scan(text: string): ParsedString {
    const simple = scanNames(text);
    if (simple) return simple;
    this.text = text;
    this.pos = 0;
    const refs = scratchRefs;
    let count = 0;
    let op: Operator | null = null;
    for (;;) {
      const ref = this.reference();
      if ('kind' in ref) return ref;
      refs[count++] = ref;
      if (this.pos >= this.text.length) {
        return { kind: 'expression', expression: { op, refs: exactCopy(refs, count) } };
      }
      const spaceStart = this.pos;
      this.skipSpaces();
      if (this.pos >= this.text.length) {
        return this.fail(
          'a reference string cannot end with spaces',
          spaceStart,
          'remove the spaces after the reference',
        );
      }
      const opStart = this.pos;
      const two = this.text.slice(this.pos, this.pos + 2);
      if (two !== '||' && two !== '&&') {
        return this.fail(
          `unexpected ${describe(this.text, this.pos)} after the reference '${ref.text}'`,
          this.pos,
          "a reference string holds only references joined by '||' or '&&'; to mix text and data, pass them as separate arguments",
        );
      }
      if (op !== null && two !== op) {
        return {
          kind: 'error',
          code: 'E_MIXED_OPS',
          message: `'${two}' after '${op}': one expression may use only one kind of operator`,
          hint: "split it: use '||' for alternatives (the first value that exists) or '&&' for gates (all must exist), not both",
          offset: opStart,
        };
      }
      op = two as Operator;
      this.pos += 2;
      this.skipSpaces();
      if (this.text[this.pos] !== DAGGER) {
        return this.fail(
          `expected a reference starting with † after '${op}' but found ${describe(this.text, this.pos)}`,
          this.pos,
        );
      }
    }
  }

  private reference(): Reference | ParseError {
    const start = this.pos;
    this.pos++; // the dagger
    const rootStart = this.pos;
    const root = this.root();
    if (root === '') {
      return this.fail(
        `expected a root after † but found ${describe(this.text, this.pos)}`,
        this.pos,
        'a reference looks like †state.path or †input.path; start a literal string with †† to keep one †',
      );
    }
    if (root === 'item' || root === 'index') {
      // Not a root of the state or the input: the element of a `_forEach` call, which only the
      // reader of such a call's arguments takes (loop-reference.ts); anywhere else, an error.
      return {
        kind: 'error',
        code: 'E_FOR_EACH_REF',
        message: `†${root} is the ${root === 'item' ? 'element' : 'position of the element'} of a _forEach call: it may only be the whole value of an argument of a call that has _forEach`,
        hint: `give the call "_forEach": "†state.list" to run it once per element of that array, or read the value with †state or †input`,
        offset: start,
      };
    }
    if (root !== 'state' && root !== 'input') {
      return {
        kind: 'error',
        code: 'E_REF_ROOT',
        message: `unknown root '${root}': a reference starts with †input or †state`,
        hint: root.toLowerCase().startsWith('in') ? 'did you mean †input?' : 'did you mean †state?',
        offset: rootStart,
      };
    }
    const segments = scratchSegments;
    let count = 0;
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (c === DOT) {
        if (this.text.charCodeAt(this.pos + 1) === DOT) {
          const descent = this.selection(scanDescent(this.text, this.pos));
          if ('kind' in descent) return descent;
          segments[count++] = descent;
          continue;
        }
        this.pos++;
        const segStart = this.pos;
        if (isDigit(this.text.charCodeAt(this.pos))) {
          const digits = this.digits();
          if (digits.length > 1 && digits.startsWith('0')) return this.leadingZero(digits, segStart);
          if (isIdentPart(this.text.charCodeAt(this.pos))) {
            return this.fail(
              `a segment is either digits or a name, not '${this.text.slice(segStart, this.pos + 1)}…'`,
              segStart,
              `write it as ["${this.segmentText(segStart)}"]`,
            );
          }
          segments[count++] = Number(digits);
          continue;
        }
        const name = this.identifier();
        if (name === '') {
          return this.fail(
            `expected a name after '.' but found ${describe(this.text, this.pos)}`,
            this.pos,
            `keys with other characters go in brackets: ["my key"]`,
          );
        }
        const forbidden = this.forbidden(name, segStart);
        if (forbidden) return forbidden;
        segments[count++] = name;
      } else if (c === OPEN_BRACKET) {
        const open = this.pos;
        this.pos++;
        const next = this.text[this.pos] ?? '';
        if (isDigit(this.text.charCodeAt(this.pos))) {
          const digitsStart = this.pos;
          const digits = this.digits();
          const after = this.text.charCodeAt(this.pos);
          if (after === COLON || after === COMMA) {
            // `[0:3]` or `[0,2]`: a selection, read from its bracket.
            const selection = this.selection(scanBracketSelection(this.text, open));
            if ('kind' in selection) return selection;
            segments[count++] = selection;
            continue;
          }
          if (digits.length > 1 && digits.startsWith('0')) return this.leadingZero(digits, digitsStart);
          segments[count++] = Number(digits);
        } else if (next === '?' || next === '-' || next === ':') {
          const selection = this.selection(scanBracketSelection(this.text, open));
          if ('kind' in selection) return selection;
          segments[count++] = selection;
          continue;
        } else if (next === '*') {
          this.pos++;
          segments[count++] = WILDCARD;
        } else if (next === '"') {
          const key = this.jsonString();
          if (typeof key !== 'string') return key;
          const forbidden = this.forbidden(key, open + 1);
          if (forbidden) return forbidden;
          segments[count++] = key;
        } else {
          return this.fail(
            `expected an index, [*], a quoted key or a selection after '[' but found ${describe(this.text, this.pos)}`,
            this.pos,
            'write [0], [*], ["key"], or select: [?(@.key < 3)], [0:3], [-1], [0,2]',
          );
        }
        if (this.text[this.pos] !== ']') {
          return this.fail(
            `expected ']' but found ${describe(this.text, this.pos)}`,
            this.pos,
            `close the bracket with ']'`,
          );
        }
        this.pos++;
      } else {
        break;
      }
    }
    return {
      root: root as Root,
      segments: exactCopy(segments, count),
      text: this.text.slice(start, this.pos),
      start,
    };
  }

  /** A scanned selection, the scan moved past it; or its error as a parse error. */
  private selection(scanned: ScannedSelection): Selection | ParseError {
    if ('error' in scanned) {
      const { message, hint, offset } = scanned.error;
      return { kind: 'error', code: 'E_REF_SELECTION', message, hint, offset };
    }
    this.pos = scanned.end;
    return scanned.selection;
  }

  /** The root name; 'state' and 'input' come back as constants, without a new string. */
  private root(): string {
    const start = this.pos;
    const end = this.identifierEnd(start);
    this.pos = end;
    if (end - start === 5) {
      if (this.text.startsWith('state', start)) return 'state';
      if (this.text.startsWith('input', start)) return 'input';
    }
    return this.text.slice(start, end);
  }

  private identifierEnd(start: number): number {
    const text = this.text;
    if (!isIdentStart(text.charCodeAt(start))) return start;
    let end = start + 1;
    while (isIdentPart(text.charCodeAt(end))) end++;
    return end;
  }

  private identifier(): string {
    const start = this.pos;
    if (!isIdentStart(this.text.charCodeAt(this.pos))) return '';
    this.pos++;
    while (isIdentPart(this.text.charCodeAt(this.pos))) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** `01` is neither index 1 nor obviously the key "01": make the writer say which. */
  private leadingZero(digits: string, offset: number): ParseError {
    return this.fail(
      `an index cannot have a leading zero: '${digits}'`,
      offset,
      `write [${Number(digits)}] for the index, or ["${digits}"] for the key`,
    );
  }

  private digits(): string {
    const start = this.pos;
    while (isDigit(this.text.charCodeAt(this.pos))) this.pos++;
    return this.text.slice(start, this.pos);
  }

  private segmentText(start: number): string {
    let end = start;
    while (end < this.text.length && /[^.[\]\s|&]/.test(this.text[end] ?? '')) end++;
    return this.text.slice(start, end);
  }

  /** A JSON string inside brackets: `["a.b"]`; escapes as in JSON. */
  private jsonString(): string | ParseError {
    const start = this.pos;
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === '\\') this.pos += 2;
      else if (c === '"') {
        this.pos++;
        try {
          return JSON.parse(this.text.slice(start, this.pos)) as string;
        } catch {
          return this.fail('invalid escape in the quoted key', start, 'quoted keys use JSON string escapes');
        }
      } else this.pos++;
    }
    return this.fail(
      'unterminated quoted key',
      start,
      'close the key with a double quote and a bracket: ["key"]',
    );
  }

  private forbidden(name: string, offset: number): ParseError | null {
    // Only names of these lengths can be forbidden; skip the set lookup (and hashing) otherwise.
    if ((name.length !== 9 && name.length !== 11) || !FORBIDDEN_SEGMENTS.has(name)) return null;
    return {
      kind: 'error',
      code: 'E_REF_FORBIDDEN',
      message: `'${name}' is not allowed in a path`,
      hint: "__proto__, prototype and constructor could reach an object's prototype; rename the key",
      offset,
    };
  }

  private skipSpaces(): void {
    while (this.text[this.pos] === ' ' || this.text[this.pos] === '\t') this.pos++;
  }

  private fail(message: string, offset: number, hint?: string): ParseError {
    return hint === undefined
      ? { kind: 'error', code: 'E_REF_SYNTAX', message, offset }
      : { kind: 'error', code: 'E_REF_SYNTAX', message, hint, offset };
  }
}

/** One scanner for everything: it holds no state between scans. */
export const scanner = new ExpressionScanner();
