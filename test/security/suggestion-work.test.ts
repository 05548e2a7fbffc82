/**
 * "Did you mean" spends a bounded amount of work on a plan, however many and however long the
 * names it compares: 2,000 unknown keys of 1,000 characters against a schema of 2,000 such names
 * took minutes (every name compared with every name, cell by cell). Work is counted, never
 * timed: the characters the comparisons read.
 */
import { describe, expect, it } from 'vitest';
import { compile, type Tool } from '../../src/index.js';
import { MAX_HINT_CELLS } from '../../src/language/diagnostics.js';

/** Characters read by charCodeAt while `work` runs: an edit distance reads one or two per cell. */
function charactersRead(work: () => void): number {
  const original = String.prototype.charCodeAt;
  let reads = 0;
  const counting = function (this: string, index: number): number {
    reads++;
    return original.call(this, index);
  };
  Object.defineProperty(String.prototype, 'charCodeAt', {
    value: counting,
    configurable: true,
    writable: true,
  });
  try {
    work();
  } finally {
    Object.defineProperty(String.prototype, 'charCodeAt', {
      value: original,
      configurable: true,
      writable: true,
    });
  }
  return reads;
}

/** `count` distinct names of `length` characters of a and b: random-looking, so no two are close. */
function names(count: number, length: number, seed: number): string[] {
  let s = seed;
  return Array.from({ length: count }, () =>
    Array.from({ length }, () => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s < 1073741824 ? 'a' : 'b';
    }).join(''),
  );
}

function strictTool(properties: readonly string[]): Tool {
  return {
    name: 't',
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(properties.map((p) => [p, { type: 'string' }])),
      additionalProperties: false,
    },
    execute: () => null,
  };
}

describe('"did you mean" over many long names', () => {
  it('reads a bounded number of characters, and still reports every unknown key', () => {
    const known = names(20, 200, 1);
    const unknown = names(20, 200, 2);
    const call: Record<string, string> = { _tool: 't' };
    for (const key of unknown) call[key] = 'x';
    const text = JSON.stringify([call]);
    let diagnostics: readonly { code: string }[] = [];
    const reads = charactersRead(() => {
      diagnostics = compile(text, { tools: [strictTool(known)] }).diagnostics;
    });
    expect(diagnostics.map((d) => d.code)).toEqual(unknown.map(() => 'E_ARGS'));
    // 76db711 compared all 400 pairs in full: 16M cells, 32M characters read.
    expect(reads).toBeLessThan(2 * MAX_HINT_CELLS + 100 * text.length);
  });

  it('still suggests the name a typo meant', () => {
    const result = compile([{ _tool: 't', amuont: 'x' }], { tools: [strictTool(['amount', 'currency'])] });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: 'E_ARGS', hint: "did you mean 'amount'?" }),
    ]);
  });

  it('lists allowed names in a hint of bounded length', () => {
    const known = names(200, 100, 3);
    const result = compile([{ _tool: 't', zzz: 'x' }], { tools: [strictTool(known)] });
    const hint = result.diagnostics[0]!.hint!;
    expect(hint).toMatch(/^allowed: a|^allowed: b/);
    expect(hint).toMatch(/, and \d+ more$/);
    expect(hint.length).toBeLessThan(1_100);
  });
});
