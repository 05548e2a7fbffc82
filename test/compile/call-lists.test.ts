/**
 * A compiled call's reads and dependencies are made from the data flow's columns when first
 * read. These cases check that a list read early (as a streamed run reads it, before the
 * plan ends) is made again once a forward reference binds, and that lists made late match.
 */
import { describe, expect, it } from 'vitest';
import { DiagnosticList } from '../../src/language/diagnostics.js';
import { resolveLimits } from '../../src/language/limits.js';
import { PlanBuilder } from '../../src/compile/plan-builder.js';
import { compile } from '../../src/index.js';

function builder(): PlanBuilder {
  const limits = resolveLimits(undefined);
  return new PlanBuilder({
    tools: undefined,
    input: undefined,
    state: {},
    stateSchema: { type: 'object', properties: { declared: {} } },
    mode: 'eager',
    limits,
    callsPointer: '',
    diagnostics: new DiagnosticList(limits.maxDiagnostics),
  });
}

describe('reads and dependencies made on first use', () => {
  it('shows a forward reference bound once the plan ends, though its lists were read before', () => {
    const plan = builder();
    const reader = plan.add({ _tool: 't', x: '†state.later', y: '†state.declared' });
    expect(reader.reads.map((r) => [r.kind, r.writers])).toEqual([
      ['later', []],
      ['later', []],
    ]);
    expect(reader.dependencies).toEqual([]);
    plan.add({ _tool: 't', _outputPath: '†state.later' });
    plan.finish();
    expect(reader.reads.map((r) => [r.kind, r.writers])).toEqual([
      ['later', [1]],
      ['schema', []],
    ]);
    expect(reader.dependencies).toEqual([{ from: 1, kind: 'data', path: '†state.later' }]);
  });

  it('lists dependencies in the order they were found, forward ones last', () => {
    const result = compile(
      JSON.stringify([
        { _tool: 't', _outputPath: '†state.a' },
        { _tool: 't', _outputPath: '†state.b' },
        { _tool: 't', x: '†state.c', y: '†state.b', z: '†state.a', _outputPath: '†state.a' },
        { _tool: 't', _outputPath: '†state.c' },
      ]),
    );
    expect(result.ok).toBe(true);
    const call = result.plan!.calls[2]!;
    expect(call.dependencies).toEqual([
      { from: 1, kind: 'data', path: '†state.b' },
      { from: 0, kind: 'data', path: '†state.a' },
      { from: 3, kind: 'data', path: '†state.c' },
    ]);
    expect(call.reads.map((r) => [r.at, r.kind, r.writers])).toEqual([
      ['/x', 'later', [3]],
      ['/y', 'earlier', [1]],
      ['/z', 'earlier', [0]],
    ]);
    // The same list each time it is read, until something changes it.
    expect(call.reads).toBe(call.reads);
    expect(result.plan!.calls[3]!.dependencies).toEqual([]);
  });

  it('keeps several writers of one read (the sides of a branch a reader joins on)', () => {
    const result = compile(
      JSON.stringify([
        { _tool: 't', _outputPath: '†state.ok || †state.failed' },
        { _tool: 't', v: '†state.ok', _outputPath: '†state.out' },
        { _tool: 't', v: '†state.failed', _outputPath: '†state.out' },
        { _tool: 't', v: '†state.out' },
      ]),
    );
    expect(result.ok).toBe(true);
    expect(result.plan!.calls[3]!.reads[0]!.writers).toEqual([1, 2]);
    expect(result.plan!.calls[3]!.dependencies.map((d) => d.from)).toEqual([1, 2]);
  });
});
