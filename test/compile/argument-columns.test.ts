/**
 * A compiled call's reference arguments live in the compile's columns, each call's a run of
 * them, and become `refs` objects only when read. These cases pin each call to its own run
 * (a wrong start or count shows as another call's references), the order of a scan (top-level
 * keys in order, then nested values), the accessors the compiler and executor read against
 * `refs`, and that the objects are made once.
 */
import { describe, expect, it } from 'vitest';
import { compile, run, ToolRegistry } from '../../src/index.js';
import type { CompiledCall } from '../../src/compile/types.js';
import { PlanBuilder } from '../../src/compile/plan-builder.js';
import { DiagnosticList } from '../../src/language/diagnostics.js';
import { resolveLimits } from '../../src/language/limits.js';

const plan = [
  { _tool: 't', _outputPath: '†state.a' },
  { _tool: 't', x: '†state.a', y: 'text', z: '††not a reference', _outputPath: '†state.b' },
  42,
  { _tool: 't', nested: { deep: ['†state.b', 1] }, either: '†state.b || †state.a' },
  { _tool: 't', again: '†state.a', _outputPath: '†state.c' },
];

function byAccessors(call: CompiledCall): [string, string | null, string[]][] {
  const out: [string, string | null, string[]][] = [];
  for (let k = 0; k < call.refCount; k++) {
    const expression = call.refExpression(k);
    out.push([call.refAt(k), expression.op, expression.refs.map((r) => r.text)]);
  }
  return out;
}

describe('reference arguments kept in columns', () => {
  it('gives each call its own references, with pointers and texts, a call that is no object too', () => {
    const limits = resolveLimits(undefined);
    const builder = new PlanBuilder({
      tools: undefined,
      input: undefined,
      state: {},
      stateSchema: undefined,
      mode: 'eager',
      limits,
      callsPointer: '',
      diagnostics: new DiagnosticList(limits.maxDiagnostics),
    });
    for (const raw of plan) builder.add(raw);
    builder.finish();
    expect(builder.pending.items.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual([
      'E_SHAPE',
    ]);
    expect(builder.calls.map((c) => c.refs.map((r) => [r.at, r.text]))).toEqual([
      [],
      [['/x', '†state.a']],
      [],
      [
        ['/either', '†state.b || †state.a'],
        ['/nested/deep/0', '†state.b'],
      ],
      [['/again', '†state.a']],
    ]);
  });

  it('answers the accessors as refs does, without making refs first', () => {
    const calls = compileCalls();
    const expected: [string, string | null, string[]][][] = [
      [],
      [['/x', null, ['†state.a']]],
      [],
      [
        ['/either', '||', ['†state.b', '†state.a']],
        ['/nested/deep/0', null, ['†state.b']],
      ],
      [['/again', null, ['†state.a']]],
    ];
    // Read through the accessors before anyone reads `refs`, then through `refs`.
    expect(calls.map(byAccessors)).toEqual(expected);
    expect(
      calls.map((c) => c.refs.map((r) => [r.at, r.expression.op, r.expression.refs.map((x) => x.text)])),
    ).toEqual(expected);
    for (const call of calls) {
      expect(call.refCount).toBe(call.refs.length);
      call.refs.forEach((r, k) => expect(r.expression).toBe(call.refExpression(k)));
    }
  });

  it('makes the objects once: refs is the same array at every read', () => {
    const call = compileCalls()[3]!;
    expect(call.refs).toBe(call.refs);
    expect(Object.isFrozen(compileCalls()[0]!.refs)).toBe(true);
  });

  it('runs with the references resolved from the columns', async () => {
    const compiled = compile(
      JSON.stringify([
        { _tool: 'echo', _outputPath: '†state.a' },
        { _tool: 'echo', n: 2, _outputPath: '†state.two' },
        {
          _tool: 'echo',
          v: { list: ['†state.a', '††a dagger'] },
          w: '†state.two || †state.a',
          _outputPath: '†state.b',
        },
      ]),
    );
    expect(compiled.ok).toBe(true);
    const echo = { name: 'echo', inputSchema: {}, execute: (args: unknown) => args };
    const result = await run(compiled.plan!, { tools: new ToolRegistry([echo]) });
    expect(result.state.b).toEqual({ v: { list: [{}, '†a dagger'] }, w: { n: 2 } });
  });
});

/** The calls of `plan` compiled, with a call of no references in place of 42 (an error). */
function compileCalls(): readonly CompiledCall[] {
  const result = compile(JSON.stringify(plan.map((c) => (typeof c === 'number' ? { _tool: 't' } : c))));
  if (!result.plan) throw new Error(result.diagnostics.map((d) => d.message).join('; '));
  return result.plan.calls;
}
