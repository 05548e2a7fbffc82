/**
 * The arguments of one LLMCompiler step, `search("x", ["$1"])`, read as Python literals the way
 * LLMCompiler's `ast.literal_eval` reads them: strings in '...' or "..." with Python's escapes,
 * numbers (signed, with fraction and exponent), `True`/`False`/`None`, lists, tuples and dicts.
 *
 * One left-to-right pass over the text with an explicit stack of open brackets: no regular
 * expression that could backtrack, no recursion over the input, so a 10,000-deep list is a
 * depth error at the first bracket past the bound, not a stack overflow. Every string the reader
 * completes goes through `onString`, which is where `$1` becomes a reference.
 */
import {
  isDigit,
  isNameStart,
  LiteralError,
  nameEnd,
  readNumber,
  readString,
  skipSpaces,
} from './python-tokens.js';

/** A value LLMCompiler's planner can write, as JSON: tuples are arrays, dicts objects. */
export type LiteralValue =
  string | number | boolean | null | LiteralValue[] | { [key: string]: LiteralValue };

/** Where a string was read: an argument value (or inside one), or a dict key. */
export type StringPlace = 'value' | 'key';

export interface ReadArgumentsOptions {
  /** Deepest nesting of brackets inside the arguments; one more is an error. */
  readonly maxDepth: number;
  /** What each completed string becomes in the imported value (a reference, say). */
  readonly onString: (text: string, place: StringPlace, offset: number) => LiteralValue;
}

export type ReadArgumentsResult =
  | { readonly ok: true; readonly args: LiteralValue[]; readonly end: number }
  | { readonly ok: false; readonly offset: number; readonly message: string; readonly hint?: string };

type Frame =
  | { kind: 'call' | 'list' | 'tuple'; items: LiteralValue[]; commas: number; expectValue: boolean }
  | {
      kind: 'dict';
      items: { [key: string]: LiteralValue };
      count: number;
      key: string | undefined;
      // 'key' before a key (or '}'), 'colon' after it, 'value' after ':', 'next' after a value.
      state: 'key' | 'colon' | 'value' | 'next';
    };

const CLOSERS: Record<Frame['kind'], string> = { call: ')', list: ']', tuple: ')', dict: '}' };

/**
 * Reads the arguments of a call whose `(` is just before `start`, up to and including the
 * matching `)`.
 *
 * @returns The positional arguments and the offset just past `)`, or where and why reading stopped.
 */
export function readCallArguments(
  text: string,
  start: number,
  options: ReadArgumentsOptions,
): ReadArgumentsResult {
  try {
    return readArguments(text, start, options);
  } catch (error) {
    if (error instanceof LiteralError) {
      return {
        ok: false,
        offset: error.offset,
        message: error.message,
        ...(error.hint ? { hint: error.hint } : {}),
      };
    }
    throw error;
  }
}

function readArguments(text: string, start: number, options: ReadArgumentsOptions): ReadArgumentsResult {
  const call: Frame = { kind: 'call', items: [], commas: 0, expectValue: true };
  const stack: Frame[] = [call];
  let at = start;
  for (;;) {
    at = skipSpaces(text, at);
    if (at >= text.length) {
      throw new LiteralError(
        at,
        `the call is not closed: ')' expected before the end of the line`,
        'a step is one line: tool("argument", ...) with its closing parenthesis',
      );
    }
    const top = stack[stack.length - 1]!;
    const char = text[at]!;
    if (char === ')' || char === ']' || char === '}') {
      const value = close(top, char, at);
      stack.pop();
      if (stack.length === 0) return { ok: true, args: call.items, end: at + 1 };
      add(stack[stack.length - 1]!, value, at);
      at += 1;
      continue;
    }
    if (char === ',') {
      separate(top, at);
      at += 1;
      continue;
    }
    if (char === ':') {
      if (top.kind !== 'dict' || top.state !== 'colon') throw new LiteralError(at, `unexpected ':'`);
      top.state = 'value';
      at += 1;
      continue;
    }
    expectValueIn(top, at);
    if (char === '[' || char === '(' || char === '{') {
      if (stack.length > options.maxDepth) {
        throw new LiteralError(at, `the arguments nest deeper than ${options.maxDepth} brackets`);
      }
      stack.push(
        char === '{'
          ? { kind: 'dict', items: {}, count: 0, key: undefined, state: 'key' }
          : { kind: char === '[' ? 'list' : 'tuple', items: [], commas: 0, expectValue: true },
      );
      at += 1;
      continue;
    }
    if (char === '"' || char === "'") {
      const read = readString(text, at);
      const place: StringPlace = top.kind === 'dict' && top.state === 'key' ? 'key' : 'value';
      const value = options.onString(read.value, place, at);
      // A key stays the text it is; onString still sees it, for the references inside.
      add(top, place === 'key' ? read.value : value, at);
      at = read.end;
      continue;
    }
    if (isDigit(char) || char === '-' || char === '+' || char === '.') {
      const read = readNumber(text, at);
      add(top, read.value, at);
      at = read.end;
      continue;
    }
    if (isNameStart(char)) {
      const end = nameEnd(text, at);
      const name = text.slice(at, end);
      add(top, nameValue(text, name, at, end, top), at);
      at = end;
      continue;
    }
    if (char === '$') {
      throw new LiteralError(at, `a reference outside quotes`, `quote it: "${referenceAt(text, at)}"`);
    }
    throw new LiteralError(at, `unexpected ${JSON.stringify(char)}: not a Python literal`);
  }
}

function expectValueIn(top: Frame, at: number): void {
  if (top.kind === 'dict') {
    if (top.state === 'key' || top.state === 'value') return;
    throw new LiteralError(
      at,
      top.state === 'colon' ? `':' expected after the dict key` : `',' or '}' expected`,
    );
  }
  if (!top.expectValue) throw new LiteralError(at, `',' or '${CLOSERS[top.kind]}' expected`);
}

function add(top: Frame, value: LiteralValue, at: number): void {
  if (top.kind === 'dict') {
    if (top.state === 'key') {
      if (typeof value !== 'string') throw new LiteralError(at, `a dict key must be a string`);
      top.key = value;
      top.state = 'colon';
      return;
    }
    // Own property, so a key "__proto__" is data, not the object's prototype.
    Object.defineProperty(top.items, top.key!, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    top.count += 1;
    top.state = 'next';
    return;
  }
  top.items.push(value);
  top.expectValue = false;
}

function separate(top: Frame, at: number): void {
  if (top.kind === 'dict') {
    if (top.state !== 'next') throw new LiteralError(at, `unexpected ','`);
    top.state = 'key';
    return;
  }
  if (top.expectValue) throw new LiteralError(at, `unexpected ','`);
  top.commas += 1;
  top.expectValue = true;
}

function close(top: Frame, char: string, at: number): LiteralValue {
  const closer = CLOSERS[top.kind];
  if (char !== closer) throw new LiteralError(at, `unexpected '${char}': '${closer}' expected`);
  if (top.kind === 'dict') {
    if (top.state === 'colon' || top.state === 'value')
      throw new LiteralError(at, `the dict key has no value`);
    return top.items;
  }
  // A parenthesised single value without a comma is the value itself: (1) is 1, (1,) a tuple.
  if (top.kind === 'tuple' && top.items.length === 1 && top.commas === 0) return top.items[0]!;
  return top.items;
}

function nameValue(text: string, name: string, at: number, end: number, top: Frame): LiteralValue {
  if (name === 'True') return true;
  if (name === 'False') return false;
  if (name === 'None') return null;
  const next = skipSpaces(text, end);
  if (top.kind === 'call' && text[next] === '=' && text[next + 1] !== '=') {
    throw new LiteralError(
      at,
      `a keyword argument (${name}=...): LLMCompiler's steps pass arguments by position`,
      `write the value alone, in the order of the tool's inputSchema properties`,
    );
  }
  if ((text[end] === "'" || text[end] === '"') && name.length <= 2) {
    throw new LiteralError(at, `a string prefix (${name}'...'): write a plain '...' or "..." string`);
  }
  throw new LiteralError(
    at,
    `${JSON.stringify(name)} is not a Python literal`,
    `LLMCompiler passes argument text that is not a Python literal as one string; quote it: "..."`,
  );
}

function referenceAt(text: string, at: number): string {
  let end = at + 1;
  while (end < text.length && end < at + 12 && /[\w{}]/.test(text[end]!)) end += 1;
  return text.slice(at, end);
}
