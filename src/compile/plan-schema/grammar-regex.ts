/**
 * Which regular expressions the grammar-based decoders turn into grammar, written from their
 * converters, as a checker: `grammarPatternViolations(pattern, engine)` lists every rule of that
 * engine's pattern conversion a `pattern` breaks (empty: converted whole, with the meaning it has
 * in ECMAScript). The `grammar` plan-schema format keeps a tool's own pattern only when no engine
 * objects (`portablePatternViolations`), and a test runs the same rules over every pattern that
 * format prints.
 *
 * Sources, one per engine (each rule below names its own):
 * - llama.cpp: grammars/README.md ("JSON Schemas → GBNF", known limitations) and
 *   common/json-schema-to-grammar.cpp `_visit_pattern` (examples/json_schema_to_grammar.py is
 *   the same algorithm): the pattern must be `^...$`; `(?` groups are refused (the C++ converter
 *   of llama-server takes `(?:` only, the Python one none); an escape outside a class is a
 *   literal only for `^$.[]()|{}*+?`, any other (`\s`, `\d`, `\w`, `\/`, `\-`) is copied into
 *   the GBNF literal, whose parser knows only `\\ \" \[ \] \t \r \n \x \u \U`; a class `[...]`
 *   is copied into GBNF as it is, so the same escapes hold inside it; lazy quantifiers are not
 *   supported.
 * - xgrammar (vLLM's default structured-output backend): cpp/regex_converter.cc: lookahead,
 *   lookbehind, backreferences, `\b`/`\B` and `\p{...}` raise errors; `^` and `$` anywhere but
 *   the ends are ignored; an unknown escape matches the character itself (ECMAScript refuses it
 *   in a `u` pattern).
 * - Outlines: outlines-core src/json_schema/parsing.rs `parse_string_type` strips `^` and `$`
 *   only when both are there and puts the rest between quotes in one Rust `regex` expression:
 *   no lookaround or backreferences, `\d` and `\w` are Unicode classes (ECMAScript's are ASCII),
 *   and inside a class `[` opens a nested class and `&&`, `--`, `~~` are set operations.
 * - All three match the pattern against the characters between the quotes of the JSON text
 *   (llama.cpp and Outlines write it between `"` and `"` as it is; xgrammar's JSON-string mode
 *   leaves out `"` and `\`), so a pattern that admits `"`, `\` or a control character (which
 *   the JSON text must escape) lets the decoder write a broken string, or cannot be followed:
 *   no `.`, `\s`, `\S`, `\D`, `\W`, and every class excludes them.
 * - node-llama-cpp enforces no `pattern` at all (its GbnfJsonStringSchema has none): it is not
 *   an engine here; the keyword checker reports `pattern` as unenforced for it.
 */

export const PATTERN_ENGINES = ['llama.cpp', 'xgrammar', 'outlines'] as const;
export type PatternEngine = (typeof PATTERN_ENGINES)[number];

/** Longest pattern checked: longer ones are not portable (the checker's work stays bounded). */
const MAX_PATTERN_LENGTH = 10_000;

type Range = readonly [number, number];

/** What JSON text must escape inside a string: control characters, `"` and `\`. */
const JSON_ESCAPED: readonly Range[] = [
  [0x00, 0x1f],
  [0x22, 0x22],
  [0x5c, 0x5c],
];
const DIGIT: readonly Range[] = [[0x30, 0x39]];
const WORD: readonly Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** Meta characters that an escape turns into themselves in all three converters. */
const LITERAL_ESCAPES = new Set([...'^$.[]()|{}*+?']);
/** Escapes GBNF knows (llama.cpp copies classes and unknown escapes into GBNF as they are). */
const GBNF_ESCAPES = new Set([...'\\"[]trnxuU']);
const CONTROL_ESCAPES = new Map([
  ['t', 0x09],
  ['n', 0x0a],
  ['v', 0x0b],
  ['f', 0x0c],
  ['r', 0x0d],
  ['0', 0x00],
]);

const JSON_TEXT = 'the decoders match patterns against the JSON text, which escapes it';

/** Every rule of `engine`'s pattern conversion that `pattern` breaks; empty when it converts whole. */
export function grammarPatternViolations(pattern: string, engine: PatternEngine): string[] {
  const messages = scan(pattern)
    .filter((v) => v.engines === 'all' || v.engines.includes(engine))
    .map((v) => v.message);
  return [...new Set(messages)];
}

/** The rules of all three engines, and that ECMAScript (JSON Schema's dialect) reads it the same. */
export function portablePatternViolations(pattern: string): string[] {
  const messages = scan(pattern).map((v) => v.message);
  try {
    new RegExp(pattern, 'u');
  } catch {
    messages.push('not a valid ECMAScript pattern with the u flag');
  }
  return [...new Set(messages)];
}

interface Violation {
  readonly engines: readonly PatternEngine[] | 'all';
  readonly message: string;
}

/** One linear pass over the code points; classes are read whole, nothing recurses. */
function scan(pattern: string): Violation[] {
  const out: Violation[] = [];
  const add = (engines: Violation['engines'], message: string) => out.push({ engines, message });
  if (pattern.length > MAX_PATTERN_LENGTH) {
    add('all', `longer than ${MAX_PATTERN_LENGTH} characters`);
    return out;
  }
  const cps = Array.from(pattern, (c) => c.codePointAt(0)!);
  const ch = (i: number) => (i < cps.length ? String.fromCodePoint(cps[i]!) : '');
  const anchoredEnd = ch(cps.length - 1) === '$' && !escapedAt(cps, cps.length - 1);
  if (ch(0) !== '^' || !anchoredEnd || cps.length < 2) {
    // llama.cpp's C++ converter refuses it; Outlines strips anchors only in pairs; xgrammar
    // always matches whole: a pattern they read alike is anchored at both ends.
    add('all', 'must start with ^ and end with $ (the converters match the whole string)');
  }
  let i = ch(0) === '^' ? 1 : 0;
  const end = anchoredEnd ? cps.length - 1 : cps.length;
  let depth = 0;
  while (i < end) {
    const c = ch(i);
    if (c === '\\') {
      i = escapeOutsideClass(cps, i, add);
    } else if (c === '[') {
      i = characterClass(cps, i, end, add);
    } else if (c === '(') {
      depth++;
      if (ch(i + 1) === '?') {
        add(
          ch(i + 2) === ':' ? ['llama.cpp'] : 'all',
          ch(i + 2) === ':'
            ? "a (?: group: llama.cpp's Python converter refuses every (? group; write a plain group ( )"
            : `a (?${ch(i + 2)} group: lookaround and modifiers are not supported (llama.cpp skips it, xgrammar and Rust's regex refuse it)`,
        );
      }
      i++;
    } else if (c === ')') {
      depth--;
      if (depth < 0) add('all', 'an unmatched )');
      i++;
    } else if (c === '|') {
      if (depth === 0) add('all', 'a | outside any group: write ^(a|b)$ (ECMAScript reads ^a|b$ otherwise)');
      i++;
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      i = quantifier(cps, i, add);
    } else if (c === '.') {
      add('all', `. admits " \\ and control characters: ${JSON_TEXT}; use a class`);
      i++;
    } else if (c === '^' || c === '$') {
      add('all', `${c} inside the pattern (only ^ first and $ last are anchors to the converters)`);
      i++;
    } else {
      if (inRanges(cps[i]!, JSON_ESCAPED)) add('all', `a literal ${JSON.stringify(c)}: ${JSON_TEXT}`);
      i++;
    }
  }
  if (depth > 0) add('all', 'an unclosed (');
  return out;
}

function escapedAt(cps: readonly number[], index: number): boolean {
  let slashes = 0;
  for (let j = index - 1; j >= 0 && cps[j] === 0x5c; j--) slashes++;
  return slashes % 2 === 1;
}

type Add = (engines: Violation['engines'], message: string) => void;

function escapeOutsideClass(cps: readonly number[], i: number, add: Add): number {
  const e = i + 1 < cps.length ? String.fromCodePoint(cps[i + 1]!) : '';
  if (LITERAL_ESCAPES.has(e)) return i + 2;
  if (e === '\\') {
    add('all', `an escaped \\: ${JSON_TEXT}`);
    return i + 2;
  }
  const hex = hexEscape(cps, i);
  if (hex !== undefined) {
    if (hex.codePoint === undefined) add('all', `a malformed \\${e} escape`);
    else if (inRanges(hex.codePoint, JSON_ESCAPED)) add('all', `\\${e} names a character ${JSON_TEXT}`);
    return hex.next;
  }
  if (CONTROL_ESCAPES.has(e) || e === 'c') {
    add('all', `\\${e} is a control character: ${JSON_TEXT}`);
    return i + 2;
  }
  add(...classEscapeRule(e, 'outside'));
  return i + 2;
}

/** The rule an escape like `\d` or `\s` breaks (outside or inside a class), for whom. */
function classEscapeRule(e: string, where: 'inside' | 'outside'): [Violation['engines'], string] {
  if ('sSDW'.includes(e) && e !== '')
    return ['all', `\\${e} admits " \\ or control characters: ${JSON_TEXT}`];
  if (e === 'd' || e === 'w') {
    return [
      ['llama.cpp', 'outlines'],
      `\\${e}: llama.cpp copies it into GBNF, which has no such escape; Rust's regex (Outlines) reads it as Unicode: write [0-9] or [A-Za-z0-9_]`,
    ];
  }
  if ((e >= '1' && e <= '9') || e === 'k')
    return ['all', `\\${e} is a backreference: no converter supports them`];
  if (e === 'b' || e === 'B') return ['all', `\\${e} is a word boundary: llama.cpp and xgrammar refuse it`];
  if (e === 'p' || e === 'P')
    return [['llama.cpp', 'xgrammar'], `\\${e}{...}: llama.cpp and xgrammar refuse it`];
  if (where === 'inside' && (e === '-' || e === '^' || e === '/' || e === '.')) {
    return [['llama.cpp'], `\\${e} in a class: llama.cpp copies it into GBNF, which has no such escape`];
  }
  return [
    ['llama.cpp', 'xgrammar'],
    `\\${e}: llama.cpp copies it into GBNF, which has no such escape, and xgrammar only warns`,
  ];
}

/** `\xHH`, `\uHHHH` or `\u{H...}`: the code point it names, and where the escape ends. */
function hexEscape(
  cps: readonly number[],
  i: number,
): { codePoint: number | undefined; next: number } | undefined {
  const e = String.fromCodePoint(cps[i + 1] ?? 0);
  if (e !== 'x' && e !== 'u') return undefined;
  const digits = (from: number, count: number) => {
    const text = String.fromCodePoint(...cps.slice(from, from + count));
    return text.length === count && /^[0-9A-Fa-f]+$/.test(text) ? parseInt(text, 16) : undefined;
  };
  if (e === 'x') return { codePoint: digits(i + 2, 2), next: i + 4 };
  if (cps[i + 2] === 0x7b) {
    let close = i + 3;
    while (close < cps.length && close < i + 10 && cps[close] !== 0x7d) close++;
    return { codePoint: digits(i + 3, close - i - 3), next: close + 1 };
  }
  return { codePoint: digits(i + 2, 4), next: i + 6 };
}

function quantifier(cps: readonly number[], i: number, add: Add): number {
  let next = i + 1;
  if (cps[i] === 0x7b) {
    const rest = String.fromCodePoint(...cps.slice(i, i + 24));
    const match = /^\{[0-9]+(,[0-9]*)?\}/.exec(rest);
    if (!match) {
      add('all', '{ must start a quantifier {n}, {n,} or {n,m} (ECMAScript reads anything else as text)');
      return next;
    }
    next = i + match[0].length;
  }
  const after = next < cps.length ? String.fromCodePoint(cps[next]!) : '';
  if (after === '?') add(['llama.cpp'], 'a lazy quantifier: llama.cpp does not support them');
  if (after === '+' || after === '*' || after === '{') add('all', 'two quantifiers in a row');
  return after === '?' ? next + 1 : next;
}

/** Reads `[...]` whole; checks its escapes and that it admits nothing JSON text escapes. */
function characterClass(cps: readonly number[], start: number, end: number, add: Add): number {
  let i = start + 1;
  const negated = cps[i] === 0x5e;
  if (negated) i++;
  const ranges: Range[] = [];
  let unknown = false;
  let previous: number | undefined;
  let pendingRange = false;
  const addPoint = (cp: number) => {
    if (pendingRange && previous !== undefined) {
      ranges.push([previous, cp]);
      pendingRange = false;
      previous = undefined;
    } else {
      ranges.push([cp, cp]);
      previous = cp;
    }
  };
  while (i < end && cps[i] !== 0x5d) {
    const c = String.fromCodePoint(cps[i]!);
    if (c === '\\') {
      const e = i + 1 < cps.length ? String.fromCodePoint(cps[i + 1]!) : '';
      const hex = hexEscape(cps, i);
      if (hex !== undefined) {
        if (hex.codePoint === undefined) add('all', `a malformed \\${e} escape`);
        else addPoint(hex.codePoint);
        i = hex.next;
        continue;
      }
      if (e === 'd' || e === 'w' || 'sSDW'.includes(e)) {
        if (e === 'd' || e === 'w') ranges.push(...(e === 'd' ? DIGIT : WORD));
        else unknown = true;
        previous = undefined;
      } else if (CONTROL_ESCAPES.has(e)) addPoint(CONTROL_ESCAPES.get(e)!);
      else if (e === '\\' || e === ']' || e === '[' || e === '-' || e === '^' || e === '/' || e === '.') {
        addPoint(cps[i + 1]!);
      }
      if (!(e === '\\' || e === ']' || e === '[' || GBNF_ESCAPES.has(e) || CONTROL_ESCAPES.has(e))) {
        add(...classEscapeRule(e, 'inside'));
      }
      i += 2;
      continue;
    }
    if (c === '[')
      add(['outlines'], "an unescaped [ in a class opens a nested class in Rust's regex (Outlines)");
    const pair = String.fromCodePoint(...cps.slice(i, i + 2));
    if (pair === '&&' || pair === '--' || pair === '~~') {
      add(['outlines'], `${pair} in a class is a set operation in Rust's regex (Outlines)`);
    }
    if (c === '-' && previous !== undefined && cps[i + 1] !== 0x5d) {
      pendingRange = true;
      i++;
      continue;
    }
    addPoint(cps[i]!);
    i++;
  }
  if (i >= end) {
    add('all', 'an unclosed [');
    return end;
  }
  if (unknown) add('all', `a class with \\s \\S \\D or \\W admits " \\ or control characters: ${JSON_TEXT}`);
  else if (
    negated ? !JSON_ESCAPED.every((r) => covered(r, ranges)) : ranges.some((r) => overlaps(r, JSON_ESCAPED))
  ) {
    add(
      'all',
      negated
        ? `a negated class must exclude " \\ and \\x00-\\x1F: ${JSON_TEXT}`
        : `a class admits " \\ or a control character: ${JSON_TEXT}`,
    );
  }
  return i + 1;
}

function inRanges(cp: number, ranges: readonly Range[]): boolean {
  return ranges.some(([from, to]) => cp >= from && cp <= to);
}

function overlaps([from, to]: Range, ranges: readonly Range[]): boolean {
  return ranges.some(([a, b]) => from <= b && a <= to);
}

/** Whether `ranges` cover every code point of `range`. */
function covered([from, to]: Range, ranges: readonly Range[]): boolean {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  let next = from;
  for (const [a, b] of sorted) {
    if (a > next) break;
    if (b >= next) next = b + 1;
    if (next > to) return true;
  }
  return next > to;
}
