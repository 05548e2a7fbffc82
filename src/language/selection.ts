/**
 * JSONPath selections inside a reference: `†state.flights[?(@.price < 300)]`, `[0:3]`, `[0,2]`,
 * `[-1]` and `†state.doc..title`. The scanner (reference-scanner.ts) hands each here at its `[`
 * or its `..`; this file reads it in one pass (no backtracking regex), so an error carries the
 * exact offset, and makes the JSONPath that jsonpath-plus runs at run time (resolve.ts).
 *
 *     selection := "[" filter "]" | "[" slice "]" | "[" union "]" | "[-" digits "]" | ".." name
 *     slice     := int? ":" int? ( ":" digits )?       int := "-"? digits
 *     union     := digits ( "," digits )+
 *     filter    := "?(" expr ")"                        (filter-expression.ts)
 *
 * What is admitted is also what jsonpath-plus reads as written: its path parser re-splits text
 * on `.`, `;`, `'`, `~`, `^` and `@`, so names and string literals keep to characters it leaves
 * alone.
 */
import { scanFilter, type SelectionError } from './filter-expression.js';
import { MAX_SELECTION_LENGTH } from './limits.js';
import { FORBIDDEN_SEGMENTS, type Selection, type SelectionForm } from './paths.js';

export type ScannedSelection =
  { readonly selection: Selection; readonly end: number } | { readonly error: SelectionError };

export type { SelectionError } from './filter-expression.js';

const FORMS_HINT = 'a selection is [?(@.key < 3)], [0:3], [-1], [0,2] or ..key';

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function fail(message: string, offset: number, hint = FORMS_HINT): ScannedSelection {
  return { error: { message, hint, offset } };
}

function made(
  form: SelectionForm,
  text: string,
  start: number,
  end: number,
  jsonPath: string,
): ScannedSelection {
  if (end - start > MAX_SELECTION_LENGTH) {
    return fail(
      `a selection is at most ${MAX_SELECTION_LENGTH} characters long`,
      start,
      'select in steps, or fewer indices at once',
    );
  }
  return { selection: { form, text: text.slice(start, end), jsonPath, many: form !== 'from-end' }, end };
}

/** The end of the digits at `pos` (pos itself when there are none). */
function digitsEnd(text: string, pos: number): number {
  while (isDigit(text.charCodeAt(pos))) pos++;
  return pos;
}

/**
 * The selection that starts at `open` (its `[`), or why there is none. `open + 1` holds `?`,
 * `-`, `:` or digits followed by `:` or `,` (the scanner reads every other bracket itself).
 */
export function scanBracketSelection(text: string, open: number): ScannedSelection {
  const close = boundedEnd(text, open);
  if (text.charCodeAt(open + 1) === 63 /* ? */) {
    const filter = scanFilter(text, open + 1, close);
    if ('error' in filter) return { error: filter.error };
    if (text[filter.end] !== ']')
      return fail(
        `expected ']' after the filter but found ${describe(text, filter.end)}`,
        filter.end,
        "close the filter with ')]'",
      );
    const end = filter.end + 1;
    return made('filter', text, open, end, `$${text.slice(open, end)}`);
  }
  const first = scanInteger(text, open + 1);
  if ('error' in first) return first;
  let pos = first.end;
  if (text[pos] === ']') {
    // Only a negative index comes here: `[3]` is the scanner's own.
    if (first.value === 0)
      return fail("'[-0]' names no element", open + 1, 'write [-1] for the last element');
    const n = first.value;
    // jsonpath-plus has no negative index; the one-element slice before it names the same element.
    return made('from-end', text, open, pos + 1, n === 1 ? '$[-1:]' : `$[-${n}:-${n - 1}]`);
  }
  if (text[pos] === ',') {
    if (first.negative)
      return fail(
        'a union lists indices from 0: jsonpath-plus has no negative index in one',
        open + 1,
        'select from the end with a slice: [-2:]',
      );
    while (text[pos] === ',') {
      const next = pos + 1;
      const end = digitsEnd(text, next);
      if (end === next)
        return fail(
          `expected an index after ',' but found ${describe(text, next)}`,
          next,
          'a union is indices with commas and no spaces: [0,2]',
        );
      if (end - next > 1 && text[next] === '0')
        return fail(`an index cannot have a leading zero: '${text.slice(next, end)}'`, next);
      pos = end;
    }
    if (text[pos] !== ']')
      return fail(
        `expected ',' or ']' in the union but found ${describe(text, pos)}`,
        pos,
        'a union is indices with commas and no spaces: [0,2]',
      );
    return made('union', text, open, pos + 1, `$${text.slice(open, pos + 1)}`);
  }
  if (text[pos] !== ':') return fail(`expected ':', ',' or ']' but found ${describe(text, pos)}`, pos);
  const second = scanInteger(text, pos + 1);
  if ('error' in second) return second;
  pos = second.end;
  if (text[pos] === ':') {
    const stepStart = pos + 1;
    pos = digitsEnd(text, stepStart);
    const step = text.slice(stepStart, pos);
    if (step === '' || Number(step) === 0 || (step.length > 1 && step[0] === '0')) {
      return fail(
        `a slice's step is a whole number from 1, not ${step === '' ? describe(text, stepStart) : `'${step}'`}`,
        stepStart,
        'write [0:10:2] for every second element of the first ten',
      );
    }
  }
  if (text[pos] !== ']')
    return fail(
      `expected ']' after the slice but found ${describe(text, pos)}`,
      pos,
      'a slice is [start:end] or [start:end:step]: [0:3], [-2:], [::2]',
    );
  return made('slice', text, open, pos + 1, `$${text.slice(open, pos + 1)}`);
}

/** `..name` at `dot` (the first of the two dots): every value of that key at any depth. */
export function scanDescent(text: string, dot: number): ScannedSelection {
  const start = dot + 2;
  if (!isNameStart(text.charCodeAt(start))) {
    return fail(
      `expected a name after '..' but found ${describe(text, start)}`,
      start,
      'recursive descent names a key: †state.doc..title',
    );
  }
  let end = start + 1;
  while (isNameStart(text.charCodeAt(end)) || isDigit(text.charCodeAt(end)) || text.charCodeAt(end) === 45)
    end++;
  const name = text.slice(start, end);
  if (FORBIDDEN_SEGMENTS.has(name)) {
    return fail(
      `'${name}' is not allowed in a path`,
      start,
      "__proto__, prototype and constructor could reach an object's prototype; rename the key",
    );
  }
  return made('descent', text, dot, end, `$..${name}`);
}

/** An optional `-`, then digits or nothing (an open end of a slice). */
function scanInteger(
  text: string,
  pos: number,
): { value: number; negative: boolean; end: number } | { error: SelectionError } {
  const negative = text[pos] === '-';
  const start = negative ? pos + 1 : pos;
  const end = digitsEnd(text, start);
  if (negative && end === start)
    return {
      error: {
        message: `expected digits after '-' but found ${describe(text, start)}`,
        hint: FORMS_HINT,
        offset: start,
      },
    };
  if (end - start > 1 && text[start] === '0')
    return {
      error: {
        message: `an index cannot have a leading zero: '${text.slice(start, end)}'`,
        hint: FORMS_HINT,
        offset: start,
      },
    };
  // More digits than an index can have: a slice clamps them, so 10 are plenty.
  if (end - start > 10)
    return {
      error: {
        message: `'${text.slice(start, end)}' is longer than any index`,
        hint: FORMS_HINT,
        offset: start,
      },
    };
  return { value: end === start ? 0 : Number(text.slice(start, end)), negative, end };
}

/** Where the scan of a selection must stop: at most MAX_SELECTION_LENGTH characters after `[`. */
function boundedEnd(text: string, open: number): number {
  return Math.min(text.length, open + MAX_SELECTION_LENGTH);
}

/** The character at `at` for a message, or the end of the string. */
export function describe(text: string, at: number): string {
  return at >= text.length ? 'the end of the string' : `'${text[at]}'`;
}
