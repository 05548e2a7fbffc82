/**
 * The plan text says what runs: a key written twice in one object is an error with both places,
 * never the last one silently winning.
 */
import { describe, expect, it } from 'vitest';
import { compile, type Tool } from '../../src/index.js';
import { duplicateKeys } from '../../src/language/text/index.js';

const TOOLS: Tool[] = [{ name: 'getWeather' }, { name: 'deleteAccount' }];

describe('duplicate keys', () => {
  it('refuses a call with two _tools, naming both places', () => {
    const text = '[\n  { "_tool": "getWeather",\n    "_tool": "deleteAccount" }\n]';
    const result = compile(text, { tools: TOOLS });
    expect(result.ok).toBe(false);
    const found = result.diagnostics.filter((d) => d.code === 'E_DUPLICATE_KEY');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', pointer: '/0/_tool', line: 3, column: 5 });
    expect(found[0]!.message).toContain('first at line 2, column 5');
  });

  it('refuses a repeated _outputPath and a repeated argument', () => {
    const text = JSON.stringify([{ _tool: 'getWeather', city: 'Paris', _outputPath: '†state.a' }])
      .replace('"city":"Paris"', '"city":"Paris","city":"Oslo"')
      .replace('"_outputPath":"†state.a"', '"_outputPath":"†state.a","_outputPath":"†state.b"');
    const codes = compile(text).diagnostics.map((d) => [d.code, d.pointer]);
    expect(codes).toEqual([
      ['E_DUPLICATE_KEY', '/0/city'],
      ['E_DUPLICATE_KEY', '/0/_outputPath'],
    ]);
  });

  it('finds repeats in any object: messages, nested values, escaped spellings, comments beside', () => {
    const text = `[
      {"type": "input", "city": "Paris", "city": "Oslo"},
      {"type": "state", "schema": {"type": "object", "type": "array"}},
      // a comment
      {"type": "plan", "plan": [{"_tool": "t", "a": [{"k": 1, "\\u006b": 2}]}]}
    ]`;
    const found = compile(text).diagnostics.filter((d) => d.code === 'E_DUPLICATE_KEY');
    expect(found.map((d) => d.pointer)).toEqual(['/0/city', '/1/schema/type', '/2/plan/0/a/0/k']);
  });

  it('keeps equal keys of different objects, and keys equal to values, apart', () => {
    const text = JSON.stringify([
      { _tool: 't', a: { a: 'a' }, b: [{ a: 1 }, { a: 2 }] },
      { _tool: 't', a: 'a' },
    ]);
    expect(compile(text).diagnostics).toEqual([]);
  });

  it('compares many keys of one object through a map, and stops at the limit', () => {
    const members = Array.from({ length: 50 }, (_, k) => `"k${k}": ${k}`).join(', ');
    expect(duplicateKeys(`{${members}, "k49": 0, "k3": 0}`, 10).map((d) => d.key)).toEqual(['k49', 'k3']);
    const repeats = `{${Array.from({ length: 5000 }, () => '"x": 1').join(', ')}}`;
    expect(duplicateKeys(repeats, 7)).toHaveLength(7);
    const result = compile(`[{"_tool": "t", "a": ${repeats}}]`, { limits: { maxDiagnostics: 20 } });
    expect(result.diagnostics.length).toBeLessThanOrEqual(21);
  });

  it('scans a wide and deep text in linear time, without recursion', () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    expect(duplicateKeys(deep, 10)).toEqual([]);
    const wide = `{${Array.from({ length: 200_000 }, (_, k) => `"key${k}": ${k}`).join(',')}, "key0": 1}`;
    expect(duplicateKeys(wide, 10).map((d) => d.pointer)).toEqual(['/key0']);
  });
});
