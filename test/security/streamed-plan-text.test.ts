/**
 * Plan text read as it arrives is untrusted like any plan text: a huge string, nesting far past
 * any stack, an array that never closes, a comment that never ends and a 10 MB chunk are read
 * within the limits, without recursion, and end with parsePlan's own diagnostics.
 */
import { describe, expect, it } from 'vitest';
import { parsePlan, PlanTextReader, type StreamedCall } from '../../src/index.js';

function readAll(chunks: Iterable<string>, limits = {}) {
  const reader = new PlanTextReader({ limits });
  const streamed: StreamedCall[] = [];
  for (const chunk of chunks) streamed.push(...reader.push(chunk));
  return { streamed, ended: reader.end() };
}

function* pieces(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

describe('hostile streamed plan text', () => {
  it('a 5 MB string argument arrives in pieces and is one call', () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const text = `[{"_tool": "a", "q": "${big}"}, {"_tool": "b"}]`;
    const { streamed, ended } = readAll(pieces(text, 65_536));
    expect(streamed.map((c) => (c.value as { _tool: string })._tool)).toEqual(['a', 'b']);
    expect((streamed[0]!.value as { q: string }).q.length).toBe(big.length);
    expect(ended.parsed.diagnostics).toEqual([]);
  });

  it('nesting 200,000 deep inside a call, and an unclosed one, one character at a time', () => {
    const depth = 200_000;
    const nested = `[{"_tool": "a", "q": ${'['.repeat(depth)}${']'.repeat(depth)}}]`;
    const { streamed, ended } = readAll(nested);
    expect(streamed).toHaveLength(1);
    expect(ended.parsed.diagnostics).toEqual(parsePlan(nested).diagnostics);
    const open = `[{"_tool": "a"}, ${'{"a":['.repeat(depth)}`;
    const unclosed = readAll(pieces(open, 3));
    expect(unclosed.streamed).toHaveLength(1);
    expect(unclosed.ended.parsed.diagnostics).toEqual(parsePlan(open).diagnostics);
    expect(unclosed.ended.parsed.diagnostics[0]).toMatchObject({ code: 'E_JSON' });
  });

  it('an array that never closes stops at limits.maxTextLength with parsePlan E_LIMIT', () => {
    const limits = { maxTextLength: 10_000 };
    const reader = new PlanTextReader({ limits });
    let text = '[';
    let handed = reader.push('[').length;
    // Far past the limit: every push past it returns nothing and keeps nothing.
    for (let i = 0; i < 5_000; i++) {
      const chunk = `{"_tool": "a", "i": ${i}},`;
      text += chunk;
      handed += reader.push(chunk).length;
    }
    const ended = reader.end();
    expect(handed).toBeGreaterThan(100);
    expect(handed).toBeLessThan(500);
    expect(ended.parsed.document).toBeNull();
    expect(ended.parsed.diagnostics).toEqual(parsePlan(text, { limits }).diagnostics);
    expect(ended.parsed.diagnostics[0]).toMatchObject({ code: 'E_LIMIT' });
    expect(ended.text.length).toBeLessThanOrEqual(10_000);
  });

  it('hands out at most limits.maxCalls calls', () => {
    const text = JSON.stringify([1, 2, 3, 4, 5].map((i) => ({ _tool: 'a', i })));
    const { streamed, ended } = readAll(pieces(text, 5), { maxCalls: 3 });
    expect(streamed.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(ended.parsed.diagnostics).toEqual(parsePlan(text, { limits: { maxCalls: 3 } }).diagnostics);
    expect(ended.calls).toEqual([]);
  });

  it('a comment that never ends', () => {
    const text = `[{"_tool": "a"}, /* ${'x'.repeat(1_000_000)}`;
    const { streamed, ended } = readAll(pieces(text, 4096));
    expect(streamed).toHaveLength(1);
    expect(ended.parsed.diagnostics).toEqual(parsePlan(text).diagnostics);
    expect(ended.parsed.diagnostics[0]!.message).toContain('comment that never ends');
  });

  it('a 10 MB chunk of 100,000 calls at once', () => {
    const call = `{"_tool": "search", "query": "${'q'.repeat(60)}", "_outputPath": "†state.r"}`;
    const text = `{"calls": [${Array.from({ length: 100_000 }, () => call).join(',\n')}], "output": null}`;
    expect(text.length).toBeGreaterThan(10_000_000);
    const reader = new PlanTextReader({ shape: 'solution' });
    const streamed = reader.push(text);
    expect(streamed).toHaveLength(100_000);
    expect(streamed[99_999]).toMatchObject({ index: 99_999, pointer: '/calls/99999', diagnostics: [] });
    const ended = reader.end();
    expect(ended.calls).toEqual([]);
    expect(ended.parsed.diagnostics).toEqual([]);
  });
});
