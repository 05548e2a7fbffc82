/**
 * Test helpers. Positions are computed here from the raw text, independently of the code
 * under test, so a test that compares them can fail.
 */
import type { PlanInput } from '../../src/language/document.js';
import { expect } from 'vitest';
import {
  type CompileOptions,
  type CompileResult,
  compile,
  DIAGNOSTIC_CODES,
  type Diagnostic,
  type Tool,
} from '../../src/index.js';

export interface Position {
  line: number;
  column: number;
}

/** 1-based line and column (UTF-16 units) of a character offset in `text`. */
export function positionOf(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Offset of the `nth` (0-based) occurrence of `needle` in `text`; fails the test when missing. */
export function offsetOf(text: string, needle: string, nth = 0): number {
  let at = -1;
  for (let k = 0; k <= nth; k++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${JSON.stringify(needle)} occurs fewer than ${nth + 1} times in the text`);
  }
  return at;
}

/** Position of the `nth` occurrence of `needle`, moved `delta` characters into it. */
export function positionOfText(text: string, needle: string, delta = 0, nth = 0): Position {
  return positionOf(text, offsetOf(text, needle, nth) + delta);
}

/**
 * Position of the character at decoded offset `offset` inside the JSON string value
 * `JSON.stringify(value)`, which must occur in `text` (as it does when the text was made with
 * JSON.stringify). The raw length of a prefix is the length of its own JSON rendering.
 */
export function positionInString(text: string, value: string, offset: number, nth = 0): Position {
  const quoted = JSON.stringify(value);
  const start = offsetOf(text, quoted, nth);
  const rawPrefix = JSON.stringify(value.slice(0, offset)).length - 2;
  return positionOf(text, start + 1 + rawPrefix);
}

/** A pretty-printed plan document, the way a model or a person writes one. */
export function doc(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** Exactly one diagnostic with `code`; returns it. */
export function only(diagnostics: readonly Diagnostic[], code: string): Diagnostic {
  const found = diagnostics.filter((d) => d.code === code);
  expect(found, `expected exactly one ${code} in ${JSON.stringify(diagnostics, null, 1)}`).toHaveLength(1);
  return found[0]!;
}

/** Codes of the diagnostics, in the order they come. */
export function codes(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => d.code);
}

/** Compiles and asserts the result is valid; returns the plan. */
export function compileOk(input: PlanInput, options: CompileOptions = {}) {
  const result = compile(input, options);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  expect(errors, JSON.stringify(errors, null, 1)).toEqual([]);
  expect(result.ok).toBe(true);
  expect(result.plan).toBeDefined();
  return result.plan!;
}

/** Compiles and asserts the result is invalid. */
export function compileErrors(input: PlanInput, options: CompileOptions = {}): CompileResult {
  const result = compile(input, options);
  expect(result.ok).toBe(false);
  expect(result.plan).toBeUndefined();
  return result;
}

/** Dependencies of call `i` as `from` indices, sorted. */
export function depsOf(
  plan: { calls: readonly { dependencies: readonly { from: number }[] }[] },
  i: number,
): number[] {
  return [...new Set(plan.calls[i]!.dependencies.map((d) => d.from))].sort((a, b) => a - b);
}

/** True when `a` comes before `b` in the plan's order. */
export function precedes(order: readonly number[], a: number, b: number): boolean {
  const ia = order.indexOf(a);
  const ib = order.indexOf(b);
  expect(ia).toBeGreaterThanOrEqual(0);
  expect(ib).toBeGreaterThanOrEqual(0);
  return ia < ib;
}

/**
 * Structural checks every diagnostic must pass: a known code, a matching severity, a pointer,
 * a 1-based position inside the text when the text is known.
 */
export function expectWellFormed(diagnostics: readonly Diagnostic[], text?: string): void {
  const lines = text?.split('\n');
  for (const d of diagnostics) {
    expect(DIAGNOSTIC_CODES).toContain(d.code);
    expect(d.severity).toBe(d.code.startsWith('W_') ? 'warning' : 'error');
    expect(typeof d.message).toBe('string');
    expect(d.message.length).toBeGreaterThan(0);
    expect(typeof d.pointer).toBe('string');
    expect(d.pointer === '' || d.pointer.startsWith('/')).toBe(true);
    expect(Number.isInteger(d.line)).toBe(true);
    expect(Number.isInteger(d.column)).toBe(true);
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.column).toBeGreaterThanOrEqual(1);
    if (lines) {
      expect(d.line).toBeLessThanOrEqual(lines.length);
      expect(d.column).toBeLessThanOrEqual(lines[d.line - 1]!.length + 1);
    }
  }
}

/** A tool without a schema, for plans that only need the name to exist. */
export function plainTool(name: string, extra: Partial<Tool> = {}): Tool {
  return { name, ...extra };
}
