/**
 * The error alternative at compile time: `_onError` and its E_ON_ERROR, `errorAlternative` on the
 * compiled call, the type flow (only the error object on the error alternative, only the
 * outputSchema elsewhere), W_ERROR_AS_DATA, and the schemas that know the key.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import { planSchema, simulate } from '../../src/index.js';
import type { Tool } from '../../src/tools/index.js';

const pay: Tool = {
  name: 'pay',
  inputSchema: { type: 'object', properties: { amount: { type: 'number' } } },
  outputSchema: {
    type: 'object',
    properties: { receiptId: { type: 'string' } },
    required: ['receiptId'],
  },
};
const declaring: Tool = { ...pay, name: 'declaring', errorBranch: true };
const summarize: Tool = {
  name: 'summarize',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  outputSchema: { type: 'string' },
};
const report: Tool = {
  name: 'report',
  inputSchema: {
    type: 'object',
    properties: {
      error: {
        type: 'object',
        properties: { message: { type: 'string' }, code: { type: 'string' } },
        required: ['message'],
      },
    },
    required: ['error'],
  },
};
const confirm: Tool = {
  name: 'confirm',
  inputSchema: {
    type: 'object',
    properties: { receipt: { type: 'object', required: ['receiptId'] } },
    required: ['receipt'],
  },
};
const TOOLS = [pay, declaring, summarize, report, confirm];

/** `code pointer` of each diagnostic; `tools` null compiles without tools. */
function codes(plan: unknown[], tools: Tool[] | null = TOOLS): string[] {
  return compile(plan, tools ? { tools } : {}).diagnostics.map((d) => `${d.code} ${d.pointer}`);
}

const charge = (extra: Record<string, unknown> = {}) => ({
  _tool: 'pay',
  amount: 5,
  _outputPath: '†state.receipt || †state.error',
  ...extra,
});

describe('_onError', () => {
  it("names one of the call's || alternatives: errorAlternative is its index, at any position", () => {
    const plan = (onError: string) => compile([charge({ _onError: onError })], { tools: TOOLS }).plan!;
    expect(plan('†state.error').calls[0]!.errorAlternative).toBe(1);
    expect(plan('†state.receipt').calls[0]!.errorAlternative).toBe(0);
    // Compared canonically, not as text.
    expect(plan('†state["error"]').calls[0]!.errorAlternative).toBe(1);
    const three = compile(
      [{ _tool: 'pay', _outputPath: '†state.a || †state.b[0] || †state.c', _onError: '†state.b.0' }],
      { tools: TOOLS },
    );
    expect(three.plan!.calls[0]!.errorAlternative).toBe(1);
  });

  it("overrides the tool's errorBranch, which otherwise declares the last of two or more", () => {
    const of = (call: Record<string, unknown>, tools: Tool[] | null = TOOLS) =>
      compile([call], tools ? { tools } : {}).plan!.calls[0]!.errorAlternative;
    expect(of(charge({ _tool: 'declaring' }))).toBe(1);
    expect(of(charge({ _tool: 'declaring', _onError: '†state.receipt' }))).toBe(0);
    // Nothing declared: no error alternative, however many alternatives there are.
    expect(of(charge())).toBeNull();
    expect(of({ _tool: 'pay', _outputPath: '†state.a || †state.b || †state.c' })).toBeNull();
    // A tool's declaration needs two or more || alternatives.
    expect(of({ _tool: 'declaring', _outputPath: '†state.receipt' })).toBeNull();
    expect(of({ _tool: 'declaring', _outputPath: '†state.a && †state.b' })).toBeNull();
    // Compiled without tools, only the plan's declaration is known.
    expect(of(charge({ _tool: 'declaring' }), null)).toBeNull();
    expect(of(charge({ _tool: 'declaring', _onError: '†state.error' }), null)).toBe(1);
  });

  it('is E_ON_ERROR wherever it names no alternative, with a hint that shows the right shape', () => {
    const shape = '"_outputPath": "†state.receipt || †state.error", "_onError": "†state.error"';
    const cases: [Record<string, unknown>, string][] = [
      [
        charge({ _onError: '†state.eror' }),
        'not one of the alternatives of "†state.receipt || †state.error"',
      ],
      [{ _tool: 'pay', _outputPath: '†state.receipt', _onError: '†state.receipt' }, 'is one path'],
      [{ _tool: 'pay', _outputPath: '†state.a && †state.b', _onError: '†state.b' }, 'writes every path (&&)'],
      [{ _tool: 'pay', _onError: '†state.error' }, 'has no _outputPath'],
      [charge({ _onError: 1 }), 'must be a string'],
      [charge({ _onError: null }), 'must be a string'],
      [charge({ _onError: 'error' }), 'must be a reference to state, not text'],
      [charge({ _onError: '††state.error' }), 'must be a reference to state, not text'],
      [charge({ _onError: '†input.error' }), 'cannot name †input.error'],
      [charge({ _onError: '†state.error[*]' }), 'cannot use [*]'],
      [charge({ _onError: '†state.receipt || †state.error' }), 'names one alternative, not an expression'],
    ];
    for (const [call, message] of cases) {
      const result = compile([call], { tools: TOOLS });
      expect(result.ok, message).toBe(false);
      const found = result.diagnostics.filter((d) => d.code === 'E_ON_ERROR');
      expect(found, message).toHaveLength(1);
      expect(found[0]!.message).toContain(message);
      expect(found[0]!.pointer).toBe('/0/_onError');
      expect(found[0]!.call).toBe('0');
      expect(found[0]!.hint).toMatch(/"_onError": "†state\.[a-z]+"/);
    }
    const last = compile([{ _tool: 'pay', _onError: '†state.error' }]).diagnostics[0]!;
    expect(last.hint).toContain(shape);
  });

  it('reports a reference syntax error with its own code, and an invalid _outputPath only once', () => {
    expect(codes([charge({ _onError: '†state.' })])).toEqual(['E_REF_SYNTAX /0/_onError']);
    expect(codes([charge({ _outputPath: 'receipt', _onError: '†state.error' })])).toEqual([
      'E_OUTPUT_PATH /0/_outputPath',
    ]);
  });

  it('is a meta key: a near miss is E_UNKNOWN_META with it as the hint', () => {
    const [d] = compile([charge({ _onerror: '†state.error' })]).diagnostics;
    expect(d).toMatchObject({ code: 'E_UNKNOWN_META', hint: 'did you mean "_onError"?' });
  });
});

describe('type flow with an error alternative', () => {
  it('the error alternative holds only the error object; the others only the outputSchema', () => {
    // Declared: reading the receipt's data is fine, the error whole fits report, its message a string.
    expect(
      codes([
        charge({ _onError: '†state.error' }),
        { _tool: 'confirm', receipt: '†state.receipt' },
        { _tool: 'report', error: '†state.error' },
        { _tool: 'summarize', text: '†state.error.message' },
      ]),
    ).toEqual([]);
    // Not declared: the last alternative is the tool's output, a receipt and only that: a string
    // parameter can never take it (E_REF_TYPE, about the receipt, not an error object).
    const undeclared = compile([charge(), { _tool: 'summarize', text: '†state.error' }], { tools: TOOLS });
    expect(undeclared.diagnostics.map((d) => `${d.code} ${d.pointer}`)).toEqual(['E_REF_TYPE /1/text']);
    expect(undeclared.diagnostics[0]!.message).toContain('written by call "0", tool "pay"');
    expect(undeclared.diagnostics[0]!.message).not.toContain('error object');
  });

  it('a declared error alternative read as data is W_ERROR_AS_DATA, not E_REF_TYPE or W_REF_TYPE', () => {
    const declared = compile(
      [charge({ _onError: '†state.error' }), { _tool: 'summarize', text: '†state.error' }],
      { tools: TOOLS },
    );
    expect(declared.ok).toBe(true);
    expect(declared.diagnostics.map((d) => `${d.code} ${d.pointer}`)).toEqual(['W_ERROR_AS_DATA /1/text']);
    expect(declared.diagnostics[0]!.message).toContain('only ever holds the error object');
    // Declared by the tool, the same.
    expect(codes([charge({ _tool: 'declaring' }), { _tool: 'summarize', text: '†state.error' }])).toEqual([
      'W_ERROR_AS_DATA /1/text',
    ]);
  });

  it('W_ERROR_AS_DATA for a read below the error alternative, without any schemas', () => {
    const plan = [
      charge({ _onError: '†state.error' }),
      { _tool: 'x', a: '†state.error.receiptId' },
      { _tool: 'x', b: '†state.error.message' },
      { _tool: 'x', c: '†state.error.code' },
      { _tool: 'x', d: '†state.error' },
      { _tool: 'x', e: '†state.error.message.text' },
      { _tool: 'x', f: '†state.error[*]' },
      { _tool: 'x', g: '†state.receipt.receiptId' },
    ];
    expect(codes(plan, null)).toEqual([
      'W_ERROR_AS_DATA /1/a',
      'W_ERROR_AS_DATA /5/e',
      'W_ERROR_AS_DATA /6/f',
    ]);
    const [d] = compile(plan).diagnostics;
    expect(d!.message).toContain('receiptId is never there');
    expect(d!.hint).toContain('†state.error.message');
    // Not declared: the last alternative may hold data, so nothing is said.
    expect(codes([charge(), { _tool: 'x', a: '†state.error.receiptId' }], null)).toEqual([]);
  });

  it('only a read bound to nothing but error alternatives is flagged', () => {
    // Another call writes data to the same path: the read may get it.
    expect(
      codes(
        [
          charge({ _onError: '†state.error' }),
          { _tool: 'x', _outputPath: '†state.error' },
          { _tool: 'x', a: '†state.error.receiptId' },
        ],
        null,
      ).filter((c) => c.startsWith('W_ERROR_AS_DATA')),
    ).toEqual([]);
    // A read of the state above the error alternative holds the receipt too.
    expect(codes([charge({ _onError: '†state.error' }), { _tool: 'x', a: '†state' }], null)).toEqual([]);
  });
});

describe('the dry run and the schemas', () => {
  it('the dry run writes the error object only to a declared error alternative; the baseline is where a plain value goes', () => {
    const tools: Tool[] = [
      { name: 'pick', outputSchema: { type: 'number' } },
      { name: 'wantsNumber', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
    ];
    const plan = (extra: Record<string, unknown>) => [
      { _id: 'pick', _tool: 'pick', _outputPath: '†state.x || †state.y', ...extra },
      { _id: 'use', _tool: 'wantsNumber', n: '†state.y' },
    ];
    // Not declared: y gets the sample (a number) when chosen.
    const plain = simulate(plan({}), { tools });
    expect(plain.scenarios.map((s) => [s.choices, s.argumentErrors.length])).toEqual([
      [{ pick: 0 }, 0],
      [{ pick: 1 }, 0],
    ]);
    // Declared first: the baseline takes y (where a plain value goes), the other scenario the error.
    const first = simulate(plan({ _onError: '†state.x' }), { tools });
    expect(first.scenarios.map((s) => [s.choices, s.varies, s.run])).toEqual([
      [{ pick: 1 }, [], ['pick', 'use']],
      [{ pick: 0 }, ['pick'], ['pick']],
    ]);
  });

  it('planSchema offers _onError in both formats, and the plan JSON Schema accepts it', () => {
    const plain = JSON.stringify(planSchema([pay]));
    expect(plain).toContain('"_onError"');
    const strict = planSchema([pay], { format: 'openai-strict', shape: 'solution' });
    expect(JSON.stringify(strict)).toContain('"_onError"');
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(planSchema([pay]));
    expect(validate([charge({ _onError: '†state.error' })])).toBe(true);
    expect(validate([charge({ _onError: '†state.a || †state.b' })])).toBe(false);
    expect(validate([charge({ _onError: '†input.error' })])).toBe(false);
    const file = JSON.parse(
      readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8'),
    ) as object;
    const document = new Ajv2020({ strict: false }).compile(file);
    expect(document([charge({ _onError: '†state.error' })])).toBe(true);
    expect(document([charge({ _onError: 1 })])).toBe(false);
    expect(document([charge({ _onError: '†state.error[*]' })])).toBe(false);
  });
});
