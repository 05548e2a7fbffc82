/**
 * What a backslash escape means in a JavaScript pattern (with the `u` flag, as JSON Schema
 * patterns are read), and how RE2 must be told the same: a code point, a set such as `\d` or
 * `\s`, an assertion such as `\b`, or a reason the pattern is refused (a backreference, an
 * escape the `u` flag forbids). The same escape means different things inside a class and
 * outside one (`\b` is a backspace in `[\b]`), so the pass in js-pattern.ts hands over where it
 * is and takes back one step through {@link EscapeSink}.
 */
import {
  codePoint,
  isAsciiLetter,
  isDigit,
  isHex,
  NOT_WHITE_SPACE_RANGES,
  readProperty,
  readUnicodeEscape,
  SYNTAX_CHARACTERS,
  WHITE_SPACE_RANGES,
} from './js-pattern-characters.js';
import { backreference, invalid, invalidEscape } from './js-pattern-refusal.js';

/** One member of a class, as far as ranges care: a code point, or a set such as `\d`. */
export type Member = number | 'set';

/** The steps of the translation an escape may take; the pass (js-pattern.ts) is the one sink. */
export interface EscapeSink {
  /** A member of the class being read, with its RE2 text and the characters it spans. */
  member(member: Member, text: string, consumed: number): void;
  /** Something a quantifier may repeat, outside a class. */
  atom(text: string, consumed: number): void;
  /** A zero-width assertion, outside a class: nothing a quantifier may repeat. */
  assertion(text: string, consumed: number): void;
}

/** Translates the escape whose backslash is at `at` in `p`, inside a class or not. */
export function translateEscape(p: string, at: number, inClass: boolean, sink: EscapeSink): void {
  const c = p[at + 1];
  const single = (value: number, consumed: number) =>
    inClass ? sink.member(value, codePoint(value), consumed) : sink.atom(codePoint(value), consumed);
  const set = (text: string) => (inClass ? sink.member('set', text, 2) : sink.atom(text, 2));
  if (c === undefined) throw invalid('it ends with a lone \\');
  switch (c) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
      return set(`\\${c}`);
    case 's':
      return set(inClass ? WHITE_SPACE_RANGES : `[${WHITE_SPACE_RANGES}]`);
    case 'S':
      return set(inClass ? NOT_WHITE_SPACE_RANGES : `[^${WHITE_SPACE_RANGES}]`);
    case 't':
      return single(0x09, 2);
    case 'n':
      return single(0x0a, 2);
    case 'v':
      return single(0x0b, 2);
    case 'f':
      return single(0x0c, 2);
    case 'r':
      return single(0x0d, 2);
    case 'b':
      if (inClass) return single(0x08, 2);
      return sink.assertion('\\b', 2);
    case 'B':
      if (inClass) throw invalidEscape('\\B', at);
      return sink.assertion('\\B', 2);
    case '-':
      if (!inClass) throw invalidEscape('\\-', at);
      return single(0x2d, 2);
    case '0':
      if (isDigit(p[at + 2])) throw invalidEscape(p.slice(at, at + 3), at);
      return single(0, 2);
    case 'c': {
      const letter = p.charCodeAt(at + 2);
      if (!isAsciiLetter(letter)) throw invalidEscape(p.slice(at, at + 3), at);
      return single(letter % 32, 3);
    }
    case 'x': {
      const hex = p.slice(at + 2, at + 4);
      if (!isHex(hex)) throw invalidEscape(p.slice(at, at + 4), at);
      return single(parseInt(hex, 16), 4);
    }
    case 'u': {
      const { value, consumed } = readUnicodeEscape(p, at);
      return single(value, consumed);
    }
    case 'p':
    case 'P':
      return property(p, at, inClass, sink);
    case 'k':
      throw backreference(p.slice(at, Math.max(at + 2, p.indexOf('>', at) + 1)), at);
    default:
      if (c >= '1' && c <= '9') throw inClass ? invalidEscape(`\\${c}`, at) : backreference(`\\${c}`, at);
      if (SYNTAX_CHARACTERS.includes(c)) return single(c.charCodeAt(0), 2);
      throw invalidEscape(`\\${String.fromCodePoint(p.codePointAt(at + 1)!)}`, at);
  }
}

/** `\p{...}` or `\P{...}`: a set inside a class, an atom outside one. */
function property(p: string, at: number, inClass: boolean, sink: EscapeSink): void {
  const { text, consumed } = readProperty(p, at, inClass);
  if (inClass) sink.member('set', text, consumed);
  else sink.atom(text, consumed);
}
