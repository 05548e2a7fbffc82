/**
 * Size and depth: nothing in the compiler may recurse over the graph or the document, so a
 * 100k-call chain, a 100k-call cycle and a 10k-deep argument give answers, not stack overflows.
 */
import { describe, expect, it } from 'vitest';
import { compile, DEFAULT_LIMITS, ToolRegistry } from '../../src/index.js';
import { only } from '../compile/helpers.js';

const N = 100_000;

describe('100,000 calls', () => {
  it('a chain (each call reads the previous call’s output) compiles in order', () => {
    const calls = Array.from({ length: N }, (_, i) =>
      i === 0
        ? { _tool: 't', _outputPath: '†state.v0' }
        : { _tool: 't', x: `†state.v${i - 1}`, _outputPath: `†state.v${i}` },
    );
    const result = compile(JSON.stringify(calls));
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
    const plan = result.plan!;
    expect(plan.order).toHaveLength(N);
    for (let i = 0; i < N; i++) {
      if (plan.order[i] !== i || plan.levels[i] !== i) throw new Error(`call ${i} is out of place`);
    }
    expect(plan.criticalPath).toHaveLength(N);
    expect(plan.edgeCount).toBe(N - 1);
  });

  it('a chain of forward references (each call reads the next call’s output) compiles in reverse', () => {
    const calls = Array.from({ length: N }, (_, i) =>
      i === N - 1
        ? { _tool: 't', _outputPath: `†state.v${i}` }
        : { _tool: 't', x: `†state.v${i + 1}`, _outputPath: `†state.v${i}` },
    );
    const result = compile(JSON.stringify(calls));
    expect(result.ok).toBe(true);
    expect(result.plan!.order[0]).toBe(N - 1);
    expect(result.plan!.order[N - 1]).toBe(0);
    expect(result.plan!.levels[0]).toBe(N - 1);
  });

  it('a forward-reference cycle through all of them is one E_CYCLE naming the whole cycle', () => {
    const calls = Array.from({ length: N }, (_, i) => ({
      _tool: 't',
      x: `†state.v${(i + 1) % N}`,
      _outputPath: `†state.v${i}`,
    }));
    const result = compile(JSON.stringify(calls));
    expect(result.ok).toBe(false);
    const d = only(result.diagnostics, 'E_CYCLE');
    expect(result.diagnostics).toHaveLength(1);
    // Data flows from call i+1 (which writes v(i+1)) to call i (which reads it).
    const names = d.message
      .replace(/^dependency cycle: /, '')
      .replace(/ \(.*$/, '')
      .split(' -> ');
    expect(names).toHaveLength(N + 1);
    expect(names.slice(0, 3)).toEqual(['0', String(N - 1), String(N - 2)]);
    expect(names.slice(-3)).toEqual(['2', '1', '0']);
  });

  it('100,000 independent readers of one value (a wide fan-out)', () => {
    const calls = [{ _tool: 't', _outputPath: '†state.root' }];
    for (let i = 1; i < N; i++)
      calls.push({ _tool: 't', x: '†state.root', _outputPath: `†state.out${i}` } as never);
    const result = compile(JSON.stringify(calls));
    expect(result.ok).toBe(true);
    expect(result.plan!.criticalPath).toHaveLength(2);
    expect(Math.max(...result.plan!.levels)).toBe(1);
  });
});

describe('deep nesting', () => {
  const DEPTH = 10_000;

  it('an argument nested 10,000 deep in a JSON text is E_LIMIT, not a crash', () => {
    const text = `[{"_tool": "t", "v": ${'['.repeat(DEPTH)}"†state.x"${']'.repeat(DEPTH)}}]`;
    const result = compile(text);
    expect(result.ok).toBe(false);
    const d = only(result.diagnostics, 'E_LIMIT');
    expect(d.pointer.startsWith('/0/v/0/0')).toBe(true);
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.column).toBeGreaterThanOrEqual(1);
  });

  it('the same with objects, with a tool whose schema recurses, and given as a value', () => {
    const text = `[{"_tool": "tree", "v": ${'{"a": '.repeat(DEPTH)}"††x"${'}'.repeat(DEPTH)}}]`;
    const tools = new ToolRegistry([
      { name: 'tree', inputSchema: { type: ['object', 'string'], additionalProperties: { $ref: '#' } } },
    ]);
    expect(compile(text, { tools }).diagnostics.map((d) => d.code)).toContain('E_LIMIT');
    let value: unknown = '†state.x';
    for (let i = 0; i < DEPTH; i++) value = { a: value };
    expect(only(compile([{ _tool: 'tree', v: value }], { tools }).diagnostics, 'E_LIMIT').pointer).toMatch(
      /^\/0\/v\/a\/a/,
    );
  });

  it('deep values outside the arguments (input, state, _output, a whole document) are E_LIMIT, no crash', () => {
    const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
    const context = `[{"type": "input", "q": ${deep}}, {"type": "state", "s": ${deep}}, {"type": "plan", "plan": [{"_tool": "t", "_output": ${deep}, "a": "†input.q", "b": "†state.s"}]}]`;
    const limited = compile(context);
    expect(limited.ok).toBe(false);
    // Each value is refused at its first level past the limit: the input and state objects are
    // level 1, so a member's own array is level 2; a call is level 1, so _output is level 2.
    const inside = '/0'.repeat(DEFAULT_LIMITS.maxDepth - 1);
    expect(limited.diagnostics.filter((d) => d.code === 'E_LIMIT').map((d) => d.pointer)).toEqual([
      `/0/q${inside}`,
      `/1/s${inside}`,
      `/2/plan/0/_output${inside}`,
    ]);
    const result = compile(`[${deep}]`);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['E_SHAPE']);
    expect(compile(deep).diagnostics.map((d) => d.code)).toEqual(['E_SHAPE']);
    const plan = compile(`{"type": "plan", "plan": [], "notes": ${deep}}`);
    expect(plan.diagnostics.map((d) => [d.code, d.pointer])).toEqual([['E_SHAPE', '/notes']]);
  });
});
