/**
 * A reference string seen again is taken by its number, with what was learned the first time:
 * these cases check that what a repeat is told matches what the first use was told.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';

const text = (calls: unknown[]) => JSON.stringify(calls);

describe('repeated reference strings', () => {
  it('reports a path over the limits at every use, not only the first', () => {
    const result = compile(
      text([
        { _tool: 't', _outputPath: '†state.a' },
        { _tool: 't', x: '†state.a[2000000]' },
        { _tool: 't', y: '†state.a[2000000]' },
      ]),
    );
    const limits = result.diagnostics.filter((d) => d.code === 'E_LIMIT');
    expect(limits.map((d) => d.pointer)).toEqual(['/1/x', '/2/y']);
  });

  it('binds a read of the whole state to the initial state, even an empty one', () => {
    const result = compile(
      text([
        { _tool: 't', x: '†state[*]' },
        { _tool: 't', y: '†state[*]' },
      ]),
    );
    expect(result.diagnostics.filter((d) => d.code === 'E_UNRESOLVED')).toEqual([]);
    expect(result.plan!.calls.map((c) => c.reads.map((r) => r.kind))).toEqual([['initial'], ['initial']]);
  });

  it('binds a repeated read to the write above it that superseded its path', () => {
    const result = compile(
      text([
        { _tool: 't', _outputPath: '†state.a.b' },
        { _tool: 't', x: '†state.a.b' },
        { _tool: 't', _outputPath: '†state.a' },
        { _tool: 't', y: '†state.a.b' },
      ]),
    );
    expect(result.ok).toBe(true);
    const calls = result.plan!.calls;
    expect(calls[1]!.dependencies.map((d) => d.from)).toEqual([0]);
    expect(calls[3]!.dependencies.map((d) => d.from)).toEqual([2]);
    expect(calls[3]!.reads[0]!.writers).toEqual([2]);
  });

  it('tells a repeated string from one that differs only in its last characters', () => {
    const result = compile(
      text([
        { _tool: 't', _outputPath: '†state.v10' },
        { _tool: 't', _outputPath: '†state.v1' },
        { _tool: 't', x: '†state.v10', y: '†state.v1' },
      ]),
    );
    const reads = result.plan!.calls[2]!.reads;
    expect(reads.map((r) => [r.ref.text, r.writers])).toEqual([
      ['†state.v10', [0]],
      ['†state.v1', [1]],
    ]);
  });
});
