/**
 * A compiled call's id and pointer are made when asked for (a plan without mistakes would make
 * one string of each per call for nothing). These cases pin what they are in each document
 * shape, and that diagnostics found while a call is read name the same call and place.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';

const calls = [
  { _tool: 't', _outputPath: '†state.a' },
  { _id: 'named', _tool: 't', x: '†state.a', _outputPath: '†state.b' },
  { _tool: 't', x: '†state.b' },
];

describe('a compiled call’s id and pointer', () => {
  it('are its index (or _id) and its place in a plain array', () => {
    const { plan } = compile(JSON.stringify(calls));
    expect(plan!.calls.map((c) => [c.id, c.pointer])).toEqual([
      ['0', '/0'],
      ['named', '/1'],
      ['2', '/2'],
    ]);
    expect(plan!.indexOf('2')).toBe(2);
    expect(plan!.indexOf('named')).toBe(1);
  });

  it('point into the plan message and the context array', () => {
    const message = compile(JSON.stringify({ type: 'plan', plan: calls }));
    expect(message.plan!.calls.map((c) => c.pointer)).toEqual(['/plan/0', '/plan/1', '/plan/2']);
    const context = compile(
      JSON.stringify([
        { type: 'input', q: 1 },
        { type: 'plan', plan: calls },
      ]),
    );
    expect(context.plan!.calls.map((c) => c.pointer)).toEqual(['/1/plan/0', '/1/plan/1', '/1/plan/2']);
  });

  it('name the call in diagnostics found while it is read, by index when its _id is unusable', () => {
    const text = JSON.stringify({
      type: 'plan',
      plan: [
        { _tool: 't', _outputPath: '†state.a' },
        { _id: 7, _tool: 't', x: '†state.a', y: '†state.nope[', _outputPath: 'state.b', _extra: 1 },
      ],
    });
    const { diagnostics } = compile(text);
    const found = diagnostics.map((d) => [d.code, d.pointer, d.call]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['E_SHAPE', '/plan/1/_id', '1'],
        ['E_REF_SYNTAX', '/plan/1/y', '1'],
        ['E_OUTPUT_PATH', '/plan/1/_outputPath', '1'],
        ['E_UNKNOWN_META', '/plan/1/_extra', '1'],
      ]),
    );
    expect(found).toHaveLength(4);
  });

  it('name an explicit _id in those diagnostics', () => {
    const text = JSON.stringify([{ _id: 'first', _tool: 't', _output: 1, _outputPath: '†state.a' }]);
    const { diagnostics } = compile(text, { mode: 'lazy' });
    expect(diagnostics.map((d) => [d.code, d.pointer, d.call])).toEqual([
      ['E_LAZY_OUTPUT', '/0/_output', 'first'],
    ]);
  });
});
