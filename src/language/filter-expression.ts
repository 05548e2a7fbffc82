/**
 * The expression of a filter selection, `[?(@.price < 300 && @.seats > 0)]`, read in one pass.
 * jsonpath-plus runs it with its safe evaluator, which still calls functions and methods it
 * reaches (`@.name.repeat(1e9)`, `@.list.push(1)`), so only comparisons of the element's values
 * with literals are admitted here, before anything runs:
 *
 *     expr    := operand ( op operand )*
 *     operand := ( "!" | "-" )* ( "(" expr ")" | value )
 *     value   := "@" ( "." name | "[" digits "]" )* | number | 'text' | true | false | null
 *     op      := "===" | "!==" | "==" | "!=" | "<=" | ">=" | "<" | ">" | "&&" | "||"
 *              | "+" | "-" | "*" | "/" | "%"
 *
 * No calls, no other names (`process`, `constructor`...), no assignment. Parentheses and unary
 * operators nest at most MAX_SELECTION_NESTING deep (the evaluator's parser recurses on them),
 * and the whole selection is at most MAX_SELECTION_LENGTH characters long.
 */
import { MAX_SELECTION_LENGTH, MAX_SELECTION_NESTING } from './limits.js';
import { FORBIDDEN_SEGMENTS } from './paths.js';

/** Why a selection is not one: said at `offset` in the reference string. */
export interface SelectionError {
  readonly message: string;
  readonly hint: string;
  readonly offset: number;
}

const OPERATORS = ['===', '!==', '==', '!=', '<=', '>=', '&&', '||', '<', '>', '+', '-', '*', '/', '%'];

/** Characters a string literal may not hold: jsonpath-plus would re-split or rewrite them. */
const UNSAFE_IN_TEXT = new Set(['"', "'", '\\', '(', ')', '[', ']', '@', '?', ';', '~', '^', '$', '`']);

const FILTER_HINT =
  "a filter compares @ (the element) or @.key with literals: [?(@.price < 300 && @.city == 'Paris')]";

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}
function isNamePart(code: number): boolean {
  return isNameStart(code) || isDigit(code);
}

function describe(text: string, at: number): string {
  return at >= text.length ? 'the end of the string' : `'${text[at]}'`;
}

/**
 * The filter at `question` (its `?`) up to its closing `)`, which must come before `limit`:
 * where the filter ends (after the `)`), or why it is not one.
 */
export function scanFilter(
  text: string,
  question: number,
  limit: number,
): { readonly end: number } | { readonly error: SelectionError } {
  const fail = (message: string, offset: number, hint = FILTER_HINT) => ({
    error: { message, hint, offset },
  });
  if (text[question + 1] !== '(')
    return fail(`expected '(' after '?' but found ${describe(text, question + 1)}`, question + 1);
  let pos = question + 2;
  let depth = 1;
  let unary = 0;
  let expectOperand = true;
  while (pos < limit) {
    const c = text.charCodeAt(pos);
    if (c === 32 || c === 9) {
      pos++;
      continue;
    }
    if (expectOperand) {
      if (c === 33 /* ! */ || c === 45 /* - */ || c === 40 /* ( */) {
        if (c === 40) depth++;
        else unary++;
        if (depth + unary > MAX_SELECTION_NESTING) {
          return fail(
            `the filter nests deeper than ${MAX_SELECTION_NESTING} parentheses and operators`,
            pos,
            'split it into simpler filters, one after the other: [?(a)][?(b)]',
          );
        }
        pos++;
        continue;
      }
      const end = operandEnd(text, pos);
      if (typeof end !== 'number') return { error: end };
      pos = end;
      unary = 0;
      expectOperand = false;
      continue;
    }
    if (c === 41 /* ) */) {
      depth--;
      pos++;
      if (depth === 0) return { end: pos };
      continue;
    }
    if (c === 40 /* ( */) return fail('a filter cannot call functions', pos, FILTER_HINT);
    const op = OPERATORS.find((o) => text.startsWith(o, pos));
    if (op === undefined) {
      const equals = text[pos] === '=';
      return fail(
        equals
          ? "'=' assigns: a filter compares with '==' or '==='"
          : `expected an operator or ')' but found ${describe(text, pos)}`,
        pos,
        equals ? "write [?(@.key == 'value')]" : FILTER_HINT,
      );
    }
    pos += op.length;
    expectOperand = true;
  }
  if (pos >= text.length)
    return fail(
      "unclosed filter: expected ')' before the end of the string",
      pos,
      "close the filter with ')]'",
    );
  return fail(
    `a selection is at most ${MAX_SELECTION_LENGTH} characters long`,
    pos,
    'select in steps: filter first, then read the keys you need',
  );
}

/** The end of the value at `pos`, or why there is none there. */
function operandEnd(text: string, pos: number): number | SelectionError {
  const c = text.charCodeAt(pos);
  if (c === 64 /* @ */) return pathEnd(text, pos);
  if (isDigit(c)) {
    let end = pos;
    while (isDigit(text.charCodeAt(end))) end++;
    if (text[end] === '.' && isDigit(text.charCodeAt(end + 1))) {
      end++;
      while (isDigit(text.charCodeAt(end))) end++;
    }
    return end;
  }
  if (c === 39 /* ' */) {
    let end = pos + 1;
    while (end < text.length && text[end] !== "'") {
      const ch = text[end]!;
      if (UNSAFE_IN_TEXT.has(ch) || text.charCodeAt(end) < 32) {
        return {
          message: `a filter's text cannot hold ${ch === '\\' ? 'a backslash' : `'${ch}'`}`,
          hint: `text in a filter is letters, digits, spaces and punctuation other than ${[...UNSAFE_IN_TEXT].join(' ')}; compare with a plain value or select in another step`,
          offset: end,
        };
      }
      end++;
    }
    if (end >= text.length)
      return {
        message: "unterminated text: expected a closing '",
        hint: "text in a filter is in single quotes: 'Paris'",
        offset: pos,
      };
    return end + 1;
  }
  if (c === 34 /* " */) {
    return {
      message: 'text in a filter is in single quotes',
      hint: "write [?(@.city == 'Paris')]",
      offset: pos,
    };
  }
  if (isNameStart(c)) {
    let end = pos + 1;
    while (isNamePart(text.charCodeAt(end))) end++;
    const name = text.slice(pos, end);
    if (name === 'true' || name === 'false' || name === 'null') return end;
    return {
      message: `unknown name '${name}' in a filter${text[end] === '(' ? ': a filter cannot call functions' : ''}`,
      hint: `${FILTER_HINT}; the element's own key is @.${name}`,
      offset: pos,
    };
  }
  return {
    message: `expected a value (@, @.key, a number, 'text', true, false or null) but found ${describe(text, pos)}`,
    hint: FILTER_HINT,
    offset: pos,
  };
}

/** `@`, `@.key`, `@[0]`, `@.a.b[2].c`: the element and keys inside it. */
function pathEnd(text: string, at: number): number | SelectionError {
  let pos = at + 1;
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c === 46 /* . */) {
      const start = pos + 1;
      if (!isNameStart(text.charCodeAt(start))) {
        return {
          message: `expected a key after '.' but found ${describe(text, start)}`,
          hint: 'a key in a filter is letters, digits and _: @.price',
          offset: start,
        };
      }
      let end = start + 1;
      while (isNamePart(text.charCodeAt(end))) end++;
      const name = text.slice(start, end);
      if (FORBIDDEN_SEGMENTS.has(name) || name.startsWith('__')) {
        return {
          message: `'${name}' is not allowed in a filter`,
          hint: "it could reach an object's prototype; compare the element's own keys",
          offset: start,
        };
      }
      pos = end;
    } else if (c === 91 /* [ */) {
      const start = pos + 1;
      let end = start;
      while (isDigit(text.charCodeAt(end))) end++;
      if (end === start || text[end] !== ']') {
        return {
          message: `expected an index and ']' after '[' in the filter but found ${describe(text, end)}`,
          hint: 'write @[0] or @.key',
          offset: end,
        };
      }
      pos = end + 1;
    } else break;
  }
  if (text[pos] === '(') return { message: 'a filter cannot call functions', hint: FILTER_HINT, offset: pos };
  // jsonpath-plus finds the element where '@' stands before '.', '[', ')' or a space: `@>3` would never match.
  if (pos === at + 1 && text[pos] !== ' ' && text[pos] !== ')') {
    return {
      message: `expected a space, '.', '[' or ')' after '@' but found ${describe(text, pos)}`,
      hint: 'write [?(@ > 3)] with a space after @',
      offset: pos,
    };
  }
  return pos;
}
