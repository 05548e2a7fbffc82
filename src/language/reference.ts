/**
 * References in plan strings (`†state.x`, `†input.a || †state.b`): whether a JSON string is
 * text, a `††` literal, a reference expression or an error, and the parser a compile uses,
 * which parses each distinct string once. The grammar and its scanner are reference-scanner.ts.
 */
import {
  DAGGER,
  describe,
  type Expression,
  type ParsedString,
  type ParseError,
  scanner,
} from './reference-scanner.js';
import { StringTable } from './string-table.js';

export { DAGGER } from './reference-scanner.js';
export type { Expression, Operator, ParsedString, Reference } from './reference-scanner.js';

/**
 * Classifies a JSON string value: ordinary text, a `††` literal, a reference expression, or an
 * error. A compile parses through {@link createStringParser}, which parses equal strings once.
 */
export function parseString(value: string): ParsedString {
  if (!value.startsWith(DAGGER)) {
    const dagger = value.indexOf(DAGGER) < 0 ? -1 : value.search(/†[A-Za-z]/);
    return dagger >= 0 ? { kind: 'text', value, suspiciousDagger: dagger } : { kind: 'text', value };
  }
  if (value.startsWith(DAGGER + DAGGER)) return { kind: 'literal', value: value.slice(1) };
  return scanner.scan(value);
}

/** Parses a string that must be a reference expression (an `_outputPath`). */
export function parseExpression(value: string): Expression | ParseError {
  if (!value.startsWith(DAGGER)) {
    return {
      kind: 'error',
      code: 'E_REF_SYNTAX',
      message: `expected a reference starting with † but found ${describe(value, 0)}`,
      offset: 0,
    };
  }
  const parsed = scanner.scan(value);
  return parsed.kind === 'expression' ? parsed.expression : (parsed as ParseError);
}

/**
 * A parser that remembers what it parsed. Plans repeat their references (every read of a
 * value and its write name the same path) and parsed results are immutable, so one compile
 * shares them; the memory goes when the parser does.
 */
export interface StringParser {
  parseString(value: string): ParsedString;
  parseExpression(value: string): Expression | ParseError;
  /**
   * The number of a string that starts with one `†` (a reference expression, or an error):
   * equal strings get equal numbers, 0, 1, 2... in the order first seen, so a compiler can keep
   * what it learns about each in flat arrays. The string is parsed the first time.
   */
  numberOf(value: string): number;
  /**
   * The number {@link numberOf} gives the string, without parsing it yet ({@link parsed} does,
   * the first time): for the canonical text of a path, which only names it.
   */
  numberOnly(value: string): number;
  /** The parse of the string numbered `n` by {@link numberOf}: an expression or an error. */
  parsed(n: number): ParsedString;
}

export function createStringParser(): StringParser {
  const table = new StringTable();
  /** Per number, its parse, or the string itself while numberOnly has not had it parsed. */
  const results: (ParsedString | string)[] = [];
  const parsed = (n: number): ParsedString => {
    const result = results[n]!;
    if (typeof result !== 'string') return result;
    return (results[n] = scanner.scan(result));
  };
  const numberOf = (value: string): number => {
    let n = table.find(value);
    if (n < 0) {
      n = table.add(value);
      results.push(scanner.scan(value));
    } else parsed(n);
    return n;
  };
  const numberOnly = (value: string): number => {
    let n = table.find(value);
    if (n < 0) {
      n = table.add(value);
      results.push(value);
    }
    return n;
  };
  return {
    parseString: (value) =>
      value.startsWith(DAGGER) && !value.startsWith(DAGGER + DAGGER)
        ? parsed(numberOnly(value))
        : parseString(value),
    parseExpression: (value) => {
      if (!value.startsWith(DAGGER)) return parseExpression(value);
      const result = parsed(numberOnly(value));
      return result.kind === 'expression' ? result.expression : (result as ParseError);
    },
    numberOf,
    numberOnly,
    parsed,
  };
}
