/** The dry run walks into workflow calls: their sub-plans, outputs, argument errors and durations. */
import { describe, expect, it } from 'vitest';
import { simulate, type Tool } from '../../src/index.js';

const stats: Tool = {
  name: 'stats',
  outputSchema: {
    type: 'object',
    properties: { count: { type: 'string' } },
    required: ['count'],
    additionalProperties: false,
  },
};
/** Declares a loose outputSchema: only its sub-plan says what `count` is. */
const measure: Tool = {
  name: 'measure',
  inputSchema: { type: 'object', properties: { topic: { type: 'string' } } },
  outputSchema: { type: 'object' },
  plan: [{ _id: 'inner', _tool: 'stats', _outputPath: '†state.s' }],
  output: { count: '†state.s.count' },
};
const need: Tool = {
  name: 'need',
  inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
};
const thermometer: Tool = { name: 'thermometer', outputSchema: { allOf: [{ type: 'number' }] } };
const speak: Tool = {
  name: 'speak',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
/** Passes any `name` on to speak, which wants a string. */
const greet: Tool = {
  name: 'greet',
  inputSchema: { type: 'object', properties: { name: {} } },
  plan: [{ _id: 'say', _tool: 'speak', text: '†input.name', _outputPath: '†state.said' }],
  output: { name: '†input.name' },
};

describe('simulate: workflow calls', () => {
  it("a workflow's output is its sub-plan's, so a wrong field inside it is caught at the reader", () => {
    const simulation = simulate(
      [
        { _id: 'm', _tool: 'measure', topic: 'cats', _outputPath: '†state.m' },
        { _id: 'use', _tool: 'need', n: '†state.m.count' },
      ],
      { tools: [stats, measure, need] },
    );
    expect(simulation.samples['m']).toEqual({
      source: 'workflow',
      value: { count: expect.any(String) },
    });
    expect(simulation.scenarios[0]!.run).toEqual(['m', 'use']);
    const errors = simulation.scenarios[0]!.argumentErrors;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ call: 'use', path: '/n', writer: 'm' });
    expect(simulation.diagnostics.map((d) => [d.code, d.call])).toEqual([['E_SIM_ARGS', 'use']]);
    expect(simulation.workflows['m']).toMatchObject({
      workflow: 'measure',
      calls: 1,
      run: ['inner'],
      skipped: [],
      criticalPath: ['inner'],
      argumentErrors: [],
      tooDeep: false,
    });
  });

  it("an argument error inside a workflow's plan is found with its arguments, at parent call → inner call", () => {
    const simulation = simulate(
      [
        { _id: 't', _tool: 'thermometer', _outputPath: '†state.t' },
        { _id: 'g', _tool: 'greet', name: '†state.t' },
      ],
      { tools: [thermometer, speak, greet] },
    );
    const inner = simulation.workflows['g']!.argumentErrors;
    expect(inner).toHaveLength(1);
    expect(inner[0]).toMatchObject({ call: 'say', tool: 'speak', path: '/text', pointer: '/0/text' });
    const [diagnostic] = simulation.diagnostics;
    expect(diagnostic).toMatchObject({ code: 'E_SIM_ARGS', call: 'g', pointer: '/1' });
    expect(diagnostic!.message).toContain('inside workflow "greet" (call "g" → "say")');
    expect(diagnostic!.message).toContain('argument /text of call "say" (tool "speak") must be string');
  });

  it('nested workflows: the inner one is walked too, and its output reaches the outer reader', () => {
    const survey: Tool = {
      name: 'survey',
      plan: [{ _id: 'measured', _tool: 'measure', topic: 'dogs', _outputPath: '†state.r' }],
      output: '†state.r',
    };
    const simulation = simulate(
      [
        { _id: 'o', _tool: 'survey', _outputPath: '†state.o' },
        { _id: 'use', _tool: 'need', n: '†state.o.count' },
      ],
      { tools: [stats, measure, need, survey] },
    );
    expect(simulation.samples['o']!.value).toEqual({ count: expect.any(String) });
    expect(simulation.diagnostics.map((d) => [d.code, d.call])).toEqual([['E_SIM_ARGS', 'use']]);
    const outer = simulation.workflows['o']!;
    expect(outer.run).toEqual(['measured']);
    expect(outer.workflows['measured']).toMatchObject({ workflow: 'measure', run: ['inner'] });
  });

  it("the critical path goes through a workflow call: its duration is its sub-plan's critical path", () => {
    const step = (name: string): Tool => ({ name, estimatedMs: 10, outputSchema: { type: 'number' } });
    const slow: Tool = {
      name: 'slow',
      plan: [
        { _id: 's1', _tool: 'one', _outputPath: '†state.a' },
        { _id: 's2', _tool: 'two', x: '†state.a', _outputPath: '†state.b' },
        { _id: 's3', _tool: 'three', x: '†state.b', _outputPath: '†state.c' },
      ],
      output: '†state.c',
    };
    const simulation = simulate(
      [
        { _id: 'a', _tool: 'start', _outputPath: '†state.x' },
        { _id: 'w', _tool: 'slow', x: '†state.x' },
        { _id: 'b', _tool: 'other' },
      ],
      {
        tools: [
          step('one'),
          step('two'),
          step('three'),
          slow,
          { name: 'start', estimatedMs: 1, outputSchema: { type: 'number' } },
          { name: 'other', estimatedMs: 25 },
        ],
      },
    );
    expect(simulation.workflows['w']).toMatchObject({
      criticalPath: ['s1', 's2', 's3'],
      criticalPathWeight: 30,
    });
    expect(simulation.criticalPath).toEqual(['a', 'w']);
    expect(simulation.criticalPathWeight).toBe(31);
  });
});
