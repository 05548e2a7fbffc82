/**
 * A read of a property its writer's outputSchema closes out (`additionalProperties: false`,
 * not in `properties`, no `patternProperties`) can never be set: E_UNRESOLVED at the argument,
 * or W_UNRESOLVED_ALTERNATIVE beside a `||` alternative that can be set.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import type { JsonSchema, Tool } from '../../src/tools/index.js';

function tool(name: string, outputSchema?: JsonSchema): Tool {
  return { name, inputSchema: { type: 'object' }, ...(outputSchema !== undefined && { outputSchema }) };
}

const closed: JsonSchema = {
  type: 'object',
  properties: {
    filings: {
      type: 'object',
      properties: {
        filingDate: { type: 'string' },
        items: {
          type: 'array',
          items: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false },
        },
      },
      additionalProperties: false,
    },
    company: { type: 'string' },
  },
  additionalProperties: false,
};

const tools = [
  tool('sec', closed),
  tool('open', { type: 'object', properties: { filings: { type: 'object' } } }),
  tool('patterned', { type: 'object', patternProperties: { '^x': {} }, additionalProperties: false }),
  tool('untyped'),
  tool('use'),
];

function errorsOf(plan: unknown[]) {
  return compile(plan, { tools }).diagnostics.map((d) => ({
    severity: d.severity,
    code: d.code,
    pointer: d.pointer,
    message: d.message,
    hint: d.hint,
  }));
}

describe('reads a closed outputSchema never sets', () => {
  it('is E_UNRESOLVED at the argument, naming the writer and the property, with a did-you-mean', () => {
    const got = errorsOf([
      { _id: 'var2', _tool: 'sec', _outputPath: '†state.var2' },
      { _id: 'var3', _tool: 'use', date: '†state.var2.fillings.filingDate' },
    ]);
    expect(got).toEqual([
      {
        severity: 'error',
        code: 'E_UNRESOLVED',
        pointer: '/1/date',
        message:
          '†state.var2.fillings.filingDate is never set: call "var2" (sec) writes †state.var2, and its outputSchema has no property \'fillings\'',
        hint: 'did you mean †state.var2.filings.filingDate?',
      },
    ]);
  });

  it('follows properties and items down to the closed object, and lists its properties when none is close', () => {
    const got = errorsOf([
      { _id: 'a', _tool: 'sec', _outputPath: '†state.a' },
      { _tool: 'use', x: '†state.a.filings.items.0.zzzzzzzz', y: '†state.a.filings.filingDate' },
    ]);
    expect(got.map((d) => [d.code, d.pointer])).toEqual([['E_UNRESOLVED', '/1/x']]);
    expect(got[0]!.message).toContain("has no property 'zzzzzzzz'");
    expect(got[0]!.hint).toBe("read a property the tool returns (it declares 'id')");
  });

  it('reads below a written path: the schema is walked from there', () => {
    const got = errorsOf([
      { _tool: 'sec', _outputPath: '†state.deep.out' },
      { _tool: 'use', x: '†state.deep.out.compnay' },
    ]);
    expect(got.map((d) => [d.code, d.hint])).toEqual([
      ['E_UNRESOLVED', 'did you mean †state.deep.out.company?'],
    ]);
  });

  it('is W_UNRESOLVED_ALTERNATIVE in a || whose other alternative can be set, and E_UNRESOLVED when none can', () => {
    const got = errorsOf([
      { _tool: 'sec', _outputPath: '†state.a' },
      { _tool: 'use', x: '†state.a.name || †state.a.company' },
      { _tool: 'use', x: '†state.a.name || †state.a.title' },
    ]);
    expect(got.map((d) => [d.severity, d.code, d.pointer])).toEqual([
      ['warning', 'W_UNRESOLVED_ALTERNATIVE', '/1/x'],
      ['error', 'E_UNRESOLVED', '/2/x'],
      ['error', 'E_UNRESOLVED', '/2/x'],
    ]);
  });

  it('says nothing when the schema leaves the key open, has patternProperties, is absent, or another writer may set it', () => {
    const got = errorsOf([
      { _tool: 'open', _outputPath: '†state.o' },
      { _tool: 'use', x: '†state.o.anything.deeper' },
      { _tool: 'patterned', _outputPath: '†state.p' },
      { _tool: 'use', x: '†state.p.other' },
      { _tool: 'untyped', _outputPath: '†state.u' },
      { _tool: 'use', x: '†state.u.whatever' },
      { _tool: 'sec', _outputPath: '†state.b || †state.c' },
      { _tool: 'open', _outputPath: '†state.c' },
      { _tool: 'use', x: '†state.b.company', y: '†state.c.filingz' },
    ]);
    expect(got.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('is not checked without tools, and a [*] read stops at the wildcard', () => {
    const plan = [
      { _tool: 'sec', _outputPath: '†state.a' },
      { _tool: 'use', x: '†state.a.filings.items[*].nope', y: '†state.a.nope[*].id' },
    ];
    expect(compile(plan).diagnostics).toEqual([]);
    expect(errorsOf(plan).map((d) => [d.code, d.pointer])).toEqual([['E_UNRESOLVED', '/1/y']]);
  });
});

describe('reads of a property of a value that is never an object', () => {
  it('is E_UNRESOLVED for a named property of an array or a string, not for an index', () => {
    const got = errorsOf([
      { _id: 'a', _tool: 'sec', _outputPath: '†state.a' },
      {
        _tool: 'use',
        x: '†state.a.filings.items.id',
        y: '†state.a.company.first',
        z: '†state.a.filings.items.0.id',
      },
    ]);
    expect(got).toEqual([
      expect.objectContaining({
        code: 'E_UNRESOLVED',
        pointer: '/1/x',
        message:
          '†state.a.filings.items.id is never set: call "a" (sec) writes †state.a, and its outputSchema makes †state.a.filings.items array, which has no property \'id\'',
        hint: "read an element (†state.a.filings.items[0].id) or every element's (†state.a.filings.items[*].id)",
      }),
      expect.objectContaining({
        code: 'E_UNRESOLVED',
        pointer: '/1/y',
        hint: 'read †state.a.company itself',
      }),
    ]);
  });
});
