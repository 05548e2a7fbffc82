/**
 * A JSON Schema pattern (ECMAScript syntax, compiled with the `u` flag as ajv does) rewritten
 * in RE2 syntax with the same meaning, or the reason it cannot be.
 *
 * One left-to-right pass over the pattern with an explicit stack of open groups: no recursion
 * and no regular expression over it, because the pattern may come from an untrusted schema or
 * be the instance of a `regex` format. Where RE2 reads the same text differently from
 * JavaScript, the output spells JavaScript's meaning out:
 *
 * - `\s`, `\S` and `.` get JavaScript's sets (RE2's `\s` is ASCII only; its `.` matches `\r`,
 *   U+2028 and U+2029);
 * - `\uXXXX`, `\u{X}`, `\xXX`, `\cX` and `\0` become `\x{...}`, and a surrogate pair written
 *   as two escapes is the one code point it stands for;
 * - `[` inside a class is escaped (RE2 would read `[:alpha:]` as a POSIX class), and `[]`
 *   (nothing) and `[^]` (anything) are written as ranges;
 * - a named group loses its name (only whether a pattern matches is ever asked);
 * - Unicode property names are translated (see unicode-properties.ts).
 *
 * The pass also checks what JavaScript's parser would (with the `u` flag) and what RE2 refuses,
 * so that a pattern it accepts compiles: lookaround and backreferences, which RE2 cannot match;
 * counts over 1000, or nested counts whose product is (RE2's limit); nesting over 1000 deep; a
 * quantifier with nothing to repeat; unbalanced parentheses; a reversed or a set-ended range
 * in a class; escapes the `u` flag forbids. It also estimates the size of the program RE2 will
 * build (counts expand: `[a-z]{1000}` is a thousand steps), which bounds both the cost of
 * compiling the pattern and the cost per character of matching it.
 *
 * This file is the pass (the grammar and the program-size estimate); what one escape means is
 * js-pattern-escapes.ts, the reading of code points, counts and properties is
 * js-pattern-characters.ts, and the reasons for a refusal are js-pattern-refusal.ts.
 */
import {
  CLASS_SPECIAL,
  isSurrogate,
  LINE_TERMINATORS,
  MAX_REPEAT,
  readCount,
} from './js-pattern-characters.js';
import { type EscapeSink, type Member, translateEscape } from './js-pattern-escapes.js';
import { invalid, loneSurrogate, Refusal } from './js-pattern-refusal.js';

export type Translation =
  | {
      readonly ok: true;
      /** The pattern in RE2 syntax. */
      readonly source: string;
      /** Roughly how many instructions RE2's program for it will have. */
      readonly size: number;
    }
  | { readonly ok: false; readonly reason: string };

export { MAX_REPEAT };

/** RE2's deepest nesting of groups. */
const MAX_NESTING = 1000;

/** Translates `pattern`; see the file's header for what changes and what is checked. */
export function translatePattern(pattern: string): Translation {
  return new Translator(pattern).run();
}

/** An atom a quantifier may apply to: its program size and the product of counts inside it. */
interface Atom {
  readonly size: number;
  readonly product: number;
}

/** An open group (the whole pattern is the outermost one). */
interface Frame {
  /** Where the group opened, for "never closed". */
  readonly at: number;
  /** Program steps the group adds around its content: a capture's two marks, or none. */
  readonly overhead: number;
  size: number;
  /** The largest product of nested counts inside the group. */
  product: number;
  /** What a quantifier right here would repeat; null after `(`, `|`, an assertion, a quantifier. */
  last: Atom | null;
}

class Translator implements EscapeSink {
  readonly #out: string[] = [];
  readonly #frames: Frame[] = [{ at: 0, overhead: 0, size: 0, product: 1, last: null }];
  #i = 0;
  /** Inside `[...]`: the previous member, and the start of a range when a `-` follows it. */
  #inClass = false;
  #classStart = 0;
  #previousMember: Member | undefined;
  #rangeFrom: Member | undefined;
  /** Whether the last token was a quantifier (lazy: with its `?`), for `a++` and `a**`. */
  #quantifier: 'none' | 'greedy' | 'lazy' = 'none';
  #quantifierStart = 0;

  constructor(private readonly pattern: string) {}

  run(): Translation {
    try {
      const p = this.pattern;
      while (this.#i < p.length) {
        if (this.#inClass) this.#classToken();
        else this.#token();
      }
      if (this.#inClass)
        throw invalid(`the class opened at character ${this.#classStart + 1} is never closed with ]`);
      if (this.#frames.length > 1)
        throw invalid(`the group opened at character ${this.#top.at + 1} is never closed with )`);
      return { ok: true, source: this.#out.join(''), size: this.#top.size + 2 };
    } catch (e) {
      if (e instanceof Refusal) return { ok: false, reason: e.reason };
      throw e;
    }
  }

  get #top(): Frame {
    return this.#frames[this.#frames.length - 1]!;
  }

  /** One token outside a class. */
  #token(): void {
    const p = this.pattern;
    const at = this.#i;
    const c = p[at]!;
    const previous = this.#quantifier;
    this.#quantifier = 'none';
    switch (c) {
      case '\\':
        return translateEscape(p, at, false, this);
      case '[':
        return this.#openClass();
      case '(':
        return this.#openGroup();
      case ')':
        return this.#closeGroup();
      case '|':
        this.#top.size += 1;
        this.#top.last = null;
        return this.#emit('|', 1);
      case '^':
      case '$':
        return this.assertion(c, 1);
      case '.':
        return this.atom(`[^${LINE_TERMINATORS}]`, 1);
      case '*':
      case '+':
      case '?':
        if (previous === 'greedy' && c === '?') {
          this.#quantifier = 'lazy';
          return this.#emit('?', 1);
        }
        if (previous === 'greedy' && c === '+')
          throw new Refusal(
            `uses a possessive quantifier ${p.slice(this.#quantifierStart, at + 1)} at character ${this.#quantifierStart + 1}, which neither JavaScript nor the linear-time engine has; drop the last +`,
          );
        return this.#quantify(c, at, c === '+' ? 1 : 0, c === '?' ? 1 : null, 1);
      case '{':
        return this.#braces();
      case '}':
      case ']':
        throw invalid(
          `a lone "${c}" at character ${at + 1} must be escaped as \\${c} with the u flag, which JSON Schema patterns use`,
        );
      default:
        return this.atom(this.#literal(), this.#literalLength());
    }
  }

  /** One token inside `[...]`. */
  #classToken(): void {
    const p = this.pattern;
    const at = this.#i;
    const c = p[at]!;
    if (c === ']') {
      if (this.#rangeFrom !== undefined) this.#rangeFrom = undefined; // `[a-]`: the `-` was literal
      this.#inClass = false;
      this.#top.size += 1;
      this.#top.last = { size: 1, product: 1 };
      return this.#emit(']', 1);
    }
    if (
      c === '-' &&
      this.#previousMember !== undefined &&
      this.#rangeFrom === undefined &&
      p[at + 1] !== ']'
    ) {
      this.#rangeFrom = this.#previousMember;
      return this.#emit('-', 1);
    }
    if (c === '\\') return translateEscape(p, at, true, this);
    const length = this.#literalLength();
    // Characters RE2 reads specially inside a class (`[:alpha:]`, a `-` after a range) are
    // escaped; JavaScript reads them as themselves here.
    const text = CLASS_SPECIAL.includes(c) ? `\\${c}` : this.#literal();
    return this.member(p.codePointAt(at)!, text, length);
  }

  #openClass(): void {
    const p = this.pattern;
    const at = this.#i;
    const negated = p[at + 1] === '^';
    const first = at + (negated ? 2 : 1);
    if (p[first] === ']') {
      // `[]` matches nothing and `[^]` anything; RE2 would read the `]` as a member.
      return this.atom(negated ? '[\\x{0}-\\x{10FFFF}]' : '[^\\x{0}-\\x{10FFFF}]', first + 1 - at);
    }
    this.#inClass = true;
    this.#classStart = at;
    this.#previousMember = undefined;
    this.#rangeFrom = undefined;
    this.#emit(negated ? '[^' : '[', first - at);
  }

  /** A class member: checks a range it ends, and remembers it for a range it may start. */
  member(member: Member, text: string, consumed: number): void {
    const from = this.#rangeFrom;
    if (from !== undefined) {
      const at = this.#i;
      if (from === 'set' || member === 'set')
        throw invalid(`the range ending at character ${at + 1} has a class such as \\d at one end`);
      if (from > member) throw invalid(`the range ending at character ${at + 1} is out of order`);
      this.#rangeFrom = undefined;
      this.#previousMember = undefined;
    } else {
      this.#previousMember = member;
    }
    this.#emit(text, consumed);
  }

  #openGroup(): void {
    const p = this.pattern;
    const at = this.#i;
    let opening = '(';
    let consumed = 1;
    if (p[at + 1] === '?') {
      const next = p[at + 2];
      const lookaround = (kind: string, length: number) =>
        new Refusal(
          `uses a ${kind} ${p.slice(at, at + length)} at character ${at + 1}, which the linear-time engine cannot match; rewrite it without lookaround`,
        );
      if (next === '=') throw lookaround('lookahead', 3);
      if (next === '!') throw lookaround('negative lookahead', 3);
      if (next === '<' && p[at + 3] === '=') throw lookaround('lookbehind', 4);
      if (next === '<' && p[at + 3] === '!') throw lookaround('negative lookbehind', 4);
      if (next === ':') {
        opening = '(?:';
        consumed = 3;
      } else if (next === '<') {
        const close = p.indexOf('>', at + 3);
        if (close < 0 || close === at + 3)
          throw invalid(`the group name after "(?<" at character ${at + 1} is not closed with >`);
        consumed = close + 1 - at;
      } else if (next === '>') {
        throw new Refusal(
          `uses an atomic group (?> at character ${at + 1}, which JavaScript patterns do not have; use (?: instead`,
        );
      } else {
        throw invalid(
          `"${p.slice(at, at + 3)}" at character ${at + 1} is not a group JavaScript patterns have (only (?:, (?=, (?!, (?<=, (?<! and (?<name>)`,
        );
      }
    }
    if (this.#frames.length > MAX_NESTING)
      throw new Refusal(
        `nests groups more than ${MAX_NESTING} deep (at character ${at + 1}), more than the linear-time engine allows; flatten it`,
      );
    this.#frames.push({ at, overhead: opening === '(?:' ? 0 : 2, size: 0, product: 1, last: null });
    this.#emit(opening, consumed);
  }

  #closeGroup(): void {
    const at = this.#i;
    if (this.#frames.length === 1) throw invalid(`the ")" at character ${at + 1} closes no group`);
    const group = this.#frames.pop()!;
    const parent = this.#top;
    const size = group.size + group.overhead;
    parent.size += size;
    parent.product = Math.max(parent.product, group.product);
    parent.last = { size, product: group.product };
    this.#emit(')', 1);
  }

  assertion(text: string, consumed: number): void {
    this.#top.size += 1;
    this.#top.last = null; // JavaScript (with `u`) does not repeat an assertion
    this.#emit(text, consumed);
  }

  atom(text: string, consumed: number): void {
    this.#top.size += 1;
    this.#top.last = { size: 1, product: 1 };
    this.#emit(text, consumed);
  }

  /** `{n}`, `{n,}`, `{n,m}`: a quantifier; anything else after `{` is an error with `u`. */
  #braces(): void {
    const at = this.#i;
    const count = readCount(this.pattern, at);
    this.#quantify(count.text, at, count.min, count.max, count.text.length);
  }

  /**
   * Applies a quantifier to the last atom: checks there is one, that nested counts stay within
   * RE2's limit, and adds what RE2's program spells out: `x{n,m}` is n copies of x and m - n
   * optional ones (a branch each), `x{n,}` n copies and a loop.
   */
  #quantify(text: string, at: number, min: number, max: number | null, consumed: number): void {
    const frame = this.#top;
    const last = frame.last;
    if (last === null)
      throw invalid(`the quantifier ${text} at character ${at + 1} has nothing to repeat before it`);
    // RE2 counts only {n,m} with a bound of 2 or more against its limit (not *, + or ?).
    const counted = text.startsWith('{') && (min >= 2 || (max ?? 0) >= 2) ? (max ?? min) : 1;
    const product = last.product * Math.max(counted, 1);
    if (product > MAX_REPEAT)
      throw new Refusal(
        `repeats ${text} at character ${at + 1} inside other counts, which multiply to more than the ${MAX_REPEAT} the linear-time engine allows; use + or *, or smaller counts`,
      );
    const spelled =
      max === null ? last.size * Math.max(min, 1) + 1 : last.size * min + (last.size + 1) * (max - min);
    frame.size += Math.max(spelled, 1) - last.size;
    frame.product = Math.max(frame.product, product);
    frame.last = null;
    this.#quantifier = 'greedy';
    this.#quantifierStart = at;
    this.#emit(text, consumed);
  }

  /** The literal character at the cursor; a lone surrogate cannot be matched. */
  #literal(): string {
    const p = this.pattern;
    const at = this.#i;
    if (this.#literalLength() === 2) return p.slice(at, at + 2);
    const unit = p.charCodeAt(at);
    if (isSurrogate(unit)) throw loneSurrogate(`\\u${unit.toString(16).toUpperCase()}`, at);
    return p[at]!;
  }

  /** 2 for a surrogate pair (one code point), else 1. */
  #literalLength(): number {
    const p = this.pattern;
    const unit = p.charCodeAt(this.#i);
    const next = p.charCodeAt(this.#i + 1);
    return unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }

  #emit(text: string, consumed: number): void {
    this.#out.push(text);
    this.#i += consumed;
  }
}
