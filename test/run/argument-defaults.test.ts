/**
 * RunOptions.applyDefaults: a tool's inputSchema `default`s are filled into the arguments a
 * call leaves out, before approval, the argument check and the tool; nested objects, objects
 * in arrays, `allOf` members and `_forEach` elements too; never into the plan or the state.
 */
import { describe, expect, it } from 'vitest';
import { compile, run, simulate, type Tool } from '../../src/index.js';
import type { JsonObject } from '../../src/language/document.js';
import { formatSimulation } from '../../src/cli/output/simulation-summary.js';
import type { CallApprovalRequest } from '../../src/run/approval.js';

function researcher(seen: JsonObject[], extra: Partial<Tool> = {}): Tool {
  return {
    name: 'research',
    inputSchema: {
      type: 'object',
      properties: {
        topic: { type: 'string' },
        depth: { type: 'string', enum: ['shallow', 'moderate', 'deep'], default: 'moderate' },
        options: {
          type: 'object',
          properties: {
            language: { type: 'string', default: 'en' },
            sources: { type: 'integer', default: 3 },
          },
        },
        filters: {
          type: 'array',
          items: { type: 'object', properties: { field: { type: 'string' }, op: { default: 'eq' } } },
        },
      },
      required: ['topic', 'depth'],
      additionalProperties: false,
    },
    execute: (args) => {
      seen.push(args);
      return { ok: true };
    },
    ...extra,
  };
}

describe('inputSchema defaults at run time', () => {
  it('fills a missing top-level property, and a plan that omits a required defaulted one compiles', async () => {
    const seen: JsonObject[] = [];
    const plan = [{ _id: 'r', _tool: 'research', topic: 'tides' }];
    expect(compile(plan, { tools: [researcher(seen)] }).diagnostics).toEqual([]);
    const result = await run(plan, { tools: [researcher(seen)] });
    expect(result.status).toBe('succeeded');
    expect(seen).toEqual([{ topic: 'tides', depth: 'moderate' }]);
    expect(result.calls[0]!.args).toEqual({ topic: 'tides', depth: 'moderate' });
  });

  it('keeps a value the plan gives, and fills nothing with applyDefaults: false', async () => {
    const seen: JsonObject[] = [];
    const tools = [researcher(seen)];
    await run([{ _id: 'r', _tool: 'research', topic: 't', depth: 'deep' }], { tools });
    expect(seen[0]).toEqual({ topic: 't', depth: 'deep' });
    const off = await run([{ _id: 'r', _tool: 'research', topic: 't' }], { tools, applyDefaults: false });
    expect(off.calls[0]!.status).toBe('failed');
    expect(off.calls[0]!.error?.message).toMatch(/depth/);
    expect(seen).toHaveLength(1);
  });

  it('fills nested objects and objects in arrays by copying them: the state and the plan stay as they were', async () => {
    const seen: JsonObject[] = [];
    const state = { opts: { sources: 9 }, filters: [{ field: 'year' }, { field: 'kind', op: 'ne' }] };
    const plan = [
      {
        _id: 'r',
        _tool: 'research',
        topic: 't',
        options: '†state.opts',
        filters: '†state.filters',
        _outputPath: '†state.out',
      },
      { _id: 'lit', _tool: 'research', topic: 'u', options: {} },
    ];
    const before = JSON.stringify(plan);
    const result = await run(plan, { tools: [researcher(seen)], state });
    expect(result.status).toBe('succeeded');
    expect(seen[0]).toEqual({
      topic: 't',
      depth: 'moderate',
      options: { sources: 9, language: 'en' },
      filters: [
        { field: 'year', op: 'eq' },
        { field: 'kind', op: 'ne' },
      ],
    });
    expect(seen[1]).toEqual({ topic: 'u', depth: 'moderate', options: { language: 'en', sources: 3 } });
    expect(state).toEqual({
      opts: { sources: 9 },
      filters: [{ field: 'year' }, { field: 'kind', op: 'ne' }],
    });
    expect(result.state.opts).toEqual({ sources: 9 });
    expect(JSON.stringify(plan)).toBe(before);
  });

  it('fills an allOf member’s defaults, and a default object gets its own nested defaults', async () => {
    const seen: JsonObject[] = [];
    const tool: Tool = {
      name: 'fetch',
      inputSchema: {
        allOf: [
          { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
          {
            properties: {
              retry: { type: 'object', default: {}, properties: { times: { type: 'integer', default: 2 } } },
            },
          },
        ],
      },
      execute: (args) => {
        seen.push(args);
        return null;
      },
    };
    await run([{ _id: 'f', _tool: 'fetch', url: 'https://example.org' }], { tools: [tool] });
    expect(seen).toEqual([{ url: 'https://example.org', retry: { times: 2 } }]);
  });

  it('fills each _forEach element after †item is in, and the call approval shows the filled arguments', async () => {
    const seen: JsonObject[] = [];
    const asked: CallApprovalRequest[] = [];
    const tools = [researcher(seen, { needsApproval: true })];
    const result = await run(
      [
        {
          _id: 'each',
          _tool: 'research',
          _forEach: '†input.topics',
          topic: '†item',
          _outputPath: '†state.all',
        },
      ],
      {
        tools,
        input: { topics: ['a', 'b'] },
        approve: (request) => {
          if (request.kind === 'call') asked.push(request);
          return true;
        },
      },
    );
    expect(result.status).toBe('succeeded');
    expect(seen).toEqual([
      { topic: 'a', depth: 'moderate' },
      { topic: 'b', depth: 'moderate' },
    ]);
    expect(asked[0]!.elements).toEqual(seen);
  });

  it('a needsApproval call is asked with its defaults filled in', async () => {
    const seen: JsonObject[] = [];
    const asked: CallApprovalRequest[] = [];
    await run([{ _id: 'r', _tool: 'research', topic: 't' }], {
      tools: [researcher(seen, { needsApproval: true })],
      approve: (request) => {
        if (request.kind === 'call') asked.push(request);
        return true;
      },
    });
    expect(asked.map((r) => r.args)).toEqual([{ topic: 't', depth: 'moderate' }]);
  });

  it('the dry run lists the defaults each call gets, and checks arguments with them', () => {
    const seen: JsonObject[] = [];
    const plan = [
      { _id: 'r', _tool: 'research', topic: 't', options: '†state.opts' },
      { _id: 'full', _tool: 'research', topic: 't', depth: 'deep' },
    ];
    const simulation = simulate(plan, { tools: [researcher(seen)], state: { opts: {} } });
    expect(simulation.defaults).toEqual({
      r: { '/depth': 'moderate', '/options/language': 'en', '/options/sources': 3 },
    });
    expect(simulation.diagnostics).toEqual([]);
    expect(formatSimulation(simulation, { file: 'plan.json', color: false })).toContain(
      '  defaults r: /depth="moderate", /options/language="en", /options/sources=3\n',
    );
    expect(
      simulate(plan, { tools: [researcher(seen)], state: { opts: {} }, applyDefaults: false }).defaults,
    ).toBe(undefined);
  });

  it('refuses a non-boolean applyDefaults', async () => {
    await expect(run([], { tools: [], applyDefaults: 'yes' as never })).rejects.toThrow(/applyDefaults/);
  });

  it('compile types a reference as having the defaulted properties its value lacks', () => {
    const reader: Tool = {
      name: 'reader',
      inputSchema: {
        type: 'object',
        properties: {
          options: {
            type: 'object',
            properties: { language: { type: 'string', default: 'en' }, sources: { type: 'integer' } },
            required: ['language'],
          },
        },
      },
    };
    const writer: Tool = {
      name: 'writer',
      outputSchema: {
        type: 'object',
        properties: { sources: { type: 'integer' } },
        required: ['sources'],
        additionalProperties: false,
      },
    };
    const plan = [
      { _id: 'w', _tool: 'writer', _outputPath: '†state.opts' },
      { _id: 'r', _tool: 'reader', options: '†state.opts' },
      { _id: 'i', _tool: 'reader', options: '†input.opts' },
    ];
    const result = compile(plan, { tools: [reader, writer], input: { opts: { sources: 2 } } });
    expect(result.diagnostics.map((d) => d.code)).toEqual([]);
    // Without the default, the same plan is refused at both references: the check is live.
    const strictReader: Tool = {
      ...reader,
      inputSchema: {
        type: 'object',
        properties: {
          options: {
            type: 'object',
            properties: { language: { type: 'string' }, sources: { type: 'integer' } },
            required: ['language'],
          },
        },
      },
    };
    const refused = compile(plan, { tools: [strictReader, writer], input: { opts: { sources: 2 } } });
    expect(refused.diagnostics.map((d) => d.code)).toEqual(['E_REF_TYPE', 'E_REF_TYPE']);
  });
});
