/** Values written at run time held to the state schema: INVALID_OUTPUT, the state left as it was. */
import { describe, expect, it } from 'vitest';
import { compile, run, type RunResult, type Tool } from '../../src/index.js';
import type { JsonObject } from '../../src/language/index.js';

const schema: JsonObject = {
  type: 'object',
  properties: {
    age: { type: 'integer', minimum: 0 },
    name: { type: 'string', minLength: 2 },
    user: { $ref: '#/$defs/user' },
  },
  $defs: { user: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
};

/** Returns its argument `v`: the value written is whatever the plan says. */
const emit: Tool = { name: 'emit', execute: (args) => args.v };
const think: Tool = { name: 'think', latent: true };

function plan(calls: unknown[]): unknown[] {
  return [
    { type: 'state', schema },
    { type: 'plan', plan: calls },
  ];
}

function statuses(result: RunResult): Record<string, string> {
  return Object.fromEntries(result.calls.map((c) => [c.id, c.status]));
}

describe('a value that breaks the state schema at its path', () => {
  it('fails its call with INVALID_OUTPUT naming the path and the failure; nothing is written, readers do not run', async () => {
    const result = await run(
      plan([
        { _id: 'age', _tool: 'emit', v: -3, _outputPath: '†state.age' },
        { _id: 'reader', _tool: 'emit', v: '†state.age', _outputPath: '†state.copy' },
      ]),
      { tools: [emit] },
    );
    expect(result.status).toBe('failed');
    expect(statuses(result)).toEqual({ age: 'failed', reader: 'upstream_failed' });
    expect(result.calls[0]!.error).toEqual({
      code: 'INVALID_OUTPUT',
      message: 'the value written to †state.age breaks the state schema: the value must be >= 0',
    });
    expect(result.state).toEqual({});
  });

  it('names the part of the value that breaks it, through the schema’s $ref', async () => {
    const result = await run(plan([{ _tool: 'emit', v: { id: 7 }, _outputPath: '†state.user' }]), {
      tools: [emit],
    });
    expect(result.calls[0]!.error).toEqual({
      code: 'INVALID_OUTPUT',
      message: "the value written to †state.user breaks the state schema: 'id' must be string",
    });
  });

  it('with &&, one path refusing the value means no path is written', async () => {
    const result = await run(plan([{ _tool: 'emit', v: 30, _outputPath: '†state.age && †state.name' }]), {
      tools: [emit],
    });
    expect(result.calls[0]!.error).toMatchObject({
      code: 'INVALID_OUTPUT',
      message: expect.stringContaining('†state.name breaks the state schema: the value must be string'),
    });
    expect(result.state).toEqual({});
  });

  it('an eager _output the compile cannot judge (a minimum) is checked when written', async () => {
    const calls = [{ _tool: 'think', _output: -1, _outputPath: '†state.age' }];
    expect(compile(plan(calls), { tools: [think] }).ok).toBe(true);
    const result = await run(plan(calls), { tools: [think] });
    expect(result.calls[0]!.error).toMatchObject({ code: 'INVALID_OUTPUT' });
    expect(result.state).toEqual({});
  });

  it('values that fit are written, and places the schema does not describe take anything', async () => {
    const result = await run(
      plan([
        { _tool: 'emit', v: 30, _outputPath: '†state.age' },
        { _tool: 'emit', v: 'Ada', _outputPath: '†state.name' },
        { _tool: 'emit', v: { id: 'u1' }, _outputPath: '†state.user' },
        { _tool: 'emit', v: [1, 'x'], _outputPath: '†state.other' },
      ]),
      { tools: [emit] },
    );
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ age: 30, name: 'Ada', user: { id: 'u1' }, other: [1, 'x'] });
  });

  it('a plan without a state schema writes what it is given, as before', async () => {
    const result = await run([{ _tool: 'emit', v: -3, _outputPath: '†state.age' }], { tools: [emit] });
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ age: -3 });
  });

  it('one compiled plan, run twice: the same check each time', async () => {
    const compiled = compile(plan([{ _tool: 'emit', v: '†input.age', _outputPath: '†state.age' }]), {
      tools: [emit],
    }).plan!;
    const bad = await run(compiled, { tools: [emit], input: { age: -1 } });
    const good = await run(compiled, { tools: [emit], input: { age: 4 } });
    expect([bad.status, good.status]).toEqual(['failed', 'succeeded']);
    expect(good.state).toEqual({ age: 4 });
  });
});
