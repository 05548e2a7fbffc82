/**
 * The tokens of a Python literal that are more than one character: strings (one line, '...' or
 * "...", with Python's escapes), decimal numbers and names. Each reader takes the text and an
 * offset and returns the value and the offset past it, or throws a LiteralError saying where.
 */

/** Where and why reading stopped; caught by `readCallArguments`, never seen outside it. */
export class LiteralError {
  constructor(
    readonly offset: number,
    readonly message: string,
    readonly hint?: string,
  ) {}
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\u0007',
  b: '\b',
  f: '\f',
  v: '\v',
};

/** Reads a one-line Python string literal starting at its quote. */
export function readString(text: string, start: number): { value: string; end: number } {
  const quote = text[start]!;
  if (text[start + 1] === quote && text[start + 2] === quote) {
    throw new LiteralError(start, `a triple-quoted string: write a plain '...' or "..." string`);
  }
  const parts: string[] = [];
  let from = start + 1;
  let at = from;
  while (at < text.length) {
    const char = text[at]!;
    if (char === quote) {
      parts.push(text.slice(from, at));
      return { value: parts.join(''), end: at + 1 };
    }
    if (char === '\n' || char === '\r') break;
    if (char !== '\\') {
      at += 1;
      continue;
    }
    parts.push(text.slice(from, at));
    const escape = readEscape(text, at);
    parts.push(escape.text);
    at = escape.end;
    from = at;
  }
  throw new LiteralError(start, `the string is not closed with ${quote} on its line`);
}

function readEscape(text: string, at: number): { text: string; end: number } {
  const kind = text[at + 1];
  if (kind === undefined) throw new LiteralError(at, `a backslash at the end of the line`);
  const simple = SIMPLE_ESCAPES[kind];
  if (simple !== undefined) return { text: simple, end: at + 2 };
  const width = kind === 'x' ? 2 : kind === 'u' ? 4 : kind === 'U' ? 8 : 0;
  if (width > 0) {
    const digits = text.slice(at + 2, at + 2 + width);
    if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== width) {
      throw new LiteralError(at, `\\${kind} needs ${width} hexadecimal digits`);
    }
    const code = Number.parseInt(digits, 16);
    if (code > 0x10ffff) throw new LiteralError(at, `\\${kind}${digits} is past the last Unicode code point`);
    return { text: String.fromCodePoint(code), end: at + 2 + width };
  }
  if (kind >= '0' && kind <= '7') {
    let end = at + 1;
    while (end < at + 4 && text[end]! >= '0' && text[end]! <= '7') end += 1;
    return { text: String.fromCodePoint(Number.parseInt(text.slice(at + 1, end), 8)), end };
  }
  if (kind === 'N') throw new LiteralError(at, `a \\N{name} escape: write the character itself`);
  // Python keeps an unknown escape as written: "\d" is a backslash and a d.
  return { text: `\\${kind}`, end: at + 2 };
}

/** Reads a decimal number, with an optional sign, fraction, exponent and `_` between digits. */
export function readNumber(text: string, start: number): { value: number; end: number } {
  let at = start;
  if (text[at] === '-' || text[at] === '+') at += 1;
  const digitsFrom = at;
  at = digitsEnd(text, at);
  const whole = at > digitsFrom;
  let fraction = false;
  if (text[at] === '.') {
    const fractionFrom = at + 1;
    at = digitsEnd(text, fractionFrom);
    fraction = at > fractionFrom;
  }
  if (!whole && !fraction) throw new LiteralError(start, `not a number`);
  if (text[at] === 'e' || text[at] === 'E') {
    let exponent = at + 1;
    if (text[exponent] === '-' || text[exponent] === '+') exponent += 1;
    const end = digitsEnd(text, exponent);
    if (end === exponent) throw new LiteralError(at, `the number's exponent has no digits`);
    at = end;
  }
  if (isNameStart(text[at] ?? '') || isDigit(text[at] ?? '')) {
    throw new LiteralError(
      start,
      `not a decimal number: ${JSON.stringify(text.slice(start, nameEnd(text, at)))}`,
    );
  }
  const written = text.slice(start, at).replaceAll('_', '');
  const value = Number(written);
  if (!Number.isFinite(value)) throw new LiteralError(start, `the number ${written} is too large for JSON`);
  return { value, end: at };
}

function digitsEnd(text: string, from: number): number {
  let at = from;
  while (
    at < text.length &&
    (isDigit(text[at]!) || (text[at] === '_' && at > from && isDigit(text[at + 1] ?? '')))
  )
    at += 1;
  return at;
}

export function skipSpaces(text: string, from: number): number {
  let at = from;
  while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at += 1;
  return at;
}

export function nameEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length && (isNameStart(text[at]!) || isDigit(text[at]!))) at += 1;
  return at;
}

export function isDigit(char: string): boolean {
  return char >= '0' && char <= '9';
}

export function isNameStart(char: string): boolean {
  return (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z') || char === '_';
}
