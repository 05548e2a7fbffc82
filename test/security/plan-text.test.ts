/**
 * The plan text says what runs: a key written twice in one object is an error with both places,
 * never the last one silently winning; files are decoded strictly, a byte that is not UTF-8 and
 * a file in UTF-16 or UTF-32 refused with where and what.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, loadToolsFile, type Tool } from '../../src/index.js';
import { decodeUtf8, duplicateKeys, firstInvalidByte } from '../../src/language/text/index.js';
import { expectUsageError, tempDir } from '../cli/helpers.js';
import { planInProcess } from '../cli/in-process.js';

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

describe('files are decoded strictly', () => {
  const { dir, cleanup } = tempDir({});
  afterAll(cleanup);
  const PLAN = '[{"_tool": "t", "city": "Paris"}]';
  const write = (name: string, bytes: Uint8Array): string => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  /** The plan with the "P" of its "Paris" (byte 25) made 0xff, never a UTF-8 byte. */
  const broken = (): Buffer => {
    const bytes = Buffer.from(PLAN, 'utf8');
    bytes[PLAN.indexOf('Paris')] = 0xff;
    return bytes;
  };

  it('refuses a plan with a byte that is not UTF-8, naming its offset (it compiled "valid" with U+FFFD)', async () => {
    const file = write('broken.json', broken());
    const result = await planInProcess(['validate', file]);
    expectUsageError(result, /plan file '.*broken\.json' is not valid UTF-8: byte 0xff at byte offset 25 /);
  });

  it('refuses an input or state file with a byte that is not UTF-8', async () => {
    const plan = write('plan.json', Buffer.from(PLAN));
    const input = write(
      'input.json',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    );
    const result = await planInProcess(['validate', plan, '--input', input]);
    expectUsageError(result, /input file '.*input\.json' is not valid UTF-8: byte 0xc3 at byte offset 6 /);
  });

  it.each([
    [
      'UTF-16LE with a byte order mark',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(PLAN, 'utf16le')]),
      'UTF-16LE',
    ],
    ['UTF-16LE without one', Buffer.from(PLAN, 'utf16le'), 'UTF-16LE'],
    [
      'UTF-16BE with a byte order mark',
      Buffer.from([0xfe, 0xff, ...Buffer.from(PLAN, 'utf16le').swap16()]),
      'UTF-16BE',
    ],
    ['UTF-32LE with a byte order mark', Buffer.from([0xff, 0xfe, 0, 0, 0x5b, 0, 0, 0]), 'UTF-32LE'],
    ['UTF-32BE without one', Buffer.from([0, 0, 0, 0x5b, 0, 0, 0, 0x5d]), 'UTF-32BE'],
  ])('names a plan file in %s', async (_name, bytes, encoding) => {
    const file = write(`wide-${encoding}.json`, bytes);
    const result = await planInProcess(['validate', file]);
    expectUsageError(result, new RegExp(`is ${encoding}, not UTF-8; save it as UTF-8`));
  });

  it('refuses a tools file that is not UTF-8', async () => {
    const file = write(
      'tools.json',
      Buffer.from([...Buffer.from('{"tools": [{"name": "t'), 0xe9, ...Buffer.from('"}]}')]),
    );
    await expect(loadToolsFile(file)).rejects.toThrow(/is not valid UTF-8: byte 0xe9 at byte offset 22/);
  });

  it('still reads UTF-8, with or without its byte order mark', async () => {
    const text = '[{"_tool": "t", "city": "Zürich 東京 😀"}]';
    const plain = write('plain.json', Buffer.from(text));
    const marked = write('marked.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    for (const file of [plain, marked]) expect((await planInProcess(['validate', file])).code).toBe(0);
  });

  it('finds the first bad byte: overlong forms, surrogates, past U+10FFFF, cut sequences', () => {
    const at = (bytes: number[]) => firstInvalidByte(Uint8Array.from(bytes));
    expect(at([0x61, 0xe6, 0x9d, 0xb1, 0xf0, 0x9f, 0x98, 0x80])).toBe(8);
    expect(at([0x61, 0xc0, 0xaf])).toBe(1);
    expect(at([0xe0, 0x80, 0xaf])).toBe(0);
    expect(at([0xed, 0xa0, 0x80])).toBe(0);
    expect(at([0xf4, 0x90, 0x80, 0x80])).toBe(0);
    expect(at([0x61, 0x62, 0xe6, 0x9d])).toBe(2);
    expect(at([0xe6, 0x41, 0x80])).toBe(0);
    expect(decodeUtf8(Uint8Array.from([0x61, 0x80]))).toEqual({
      problem: expect.objectContaining({ offset: 1 }) as unknown,
    });
  });
});

describe('--limit names', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'refuses --limit %s=5 like any unknown limit name (__proto__ was accepted)',
    async (name) => {
      const result = await planInProcess(['validate', '-', '--limit', `${name}=5`], '[]');
      expectUsageError(result, new RegExp(`Unknown limit --limit ${name}; the limits are maxCalls`));
    },
  );

  it('still takes a known limit', async () => {
    const result = await planInProcess(['validate', '-', '--limit', 'maxDepth=5'], '[{"_tool": "t"}]');
    expect(result.code).toBe(0);
  });
});
