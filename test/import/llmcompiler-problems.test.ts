/**
 * importPlans('llmcompiler', ...): what a plan cannot carry over is a warning on its sample, a
 * plan that cannot be read is an E_IMPORT_ROW error at its line (the other plans still import),
 * and a missing or unreadable tools file is E_IMPORT_FILE. Nothing throws on bad data.
 */
import { describe, expect, it } from 'vitest';
import { importPlans, type ImportedSample, type ImportResult } from '../../src/import/index.js';
import { compile, type Tool } from '../../src/index.js';

const TOOLS = {
  tools: [
    {
      name: 'search',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      outputSchema: { type: 'string' },
    },
    {
      name: 'math',
      inputSchema: {
        type: 'object',
        properties: { problem: { type: 'string' }, context: { type: 'array' } },
        required: ['problem'],
      },
      outputSchema: { type: 'number' },
    },
    { name: 'lookup', inputSchema: { type: 'object', properties: { where: {} } } },
  ],
};
const SPEC = JSON.stringify(TOOLS);

/** `null`: no tools file at all. */
function load(text: string, spec: string | null = SPEC): ImportResult {
  return importPlans('llmcompiler', text, spec === null ? {} : { spec });
}

function only(result: ImportResult): ImportedSample {
  expect(result.errors).toEqual([]);
  expect(result.samples).toHaveLength(1);
  return result.samples[0]!;
}

function calls(sample: ImportedSample): Record<string, unknown>[] {
  return (sample.plan.at(-1) as { plan: Record<string, unknown>[] }).plan;
}

function codes(sample: ImportedSample): string[] {
  return sample.warnings.map((w) => w.code);
}

function rowErrors(result: ImportResult): { line: number; message: string }[] {
  return result.errors.map((e) => {
    expect(e.code).toBe('E_IMPORT_ROW');
    return { line: e.line, message: e.message };
  });
}

describe('the tools file', () => {
  it('is required: without it, E_IMPORT_FILE names --spec', () => {
    const result = load('1. search("x")', null);
    expect(result.samples).toEqual([]);
    expect(result.errors).toEqual([
      expect.objectContaining({
        code: 'E_IMPORT_FILE',
        file: 'spec',
        message: expect.stringContaining('--spec'),
      }),
    ]);
  });

  it.each([
    ['{"tools": [', /not JSON at 1:12/],
    ['[]', /must be a JSON manifest/],
    ['{"tools": [{"inputSchema": {}}]}', /tools\[0\] has no "name"/],
    ['{"tools": [{"name": "a"}, {"name": "a"}]}', /two tools are named "a"/],
    ['{"tools": [{"name": "a", "inputSchema": []}]}', /"inputSchema" must be a JSON Schema object/],
    [
      '{"tools": [{"name": "a", "inputSchema": {"properties": 1}}]}',
      /"inputSchema.properties" must be an object/,
    ],
  ])('refuses %s as E_IMPORT_FILE', (spec, message) => {
    expect(load('1. search("x")', spec).errors).toEqual([
      expect.objectContaining({
        code: 'E_IMPORT_FILE',
        file: 'spec',
        line: 0,
        message: expect.stringMatching(message),
      }),
    ]);
  });
});

describe('arguments and references', () => {
  it('maps positional arguments to inputSchema.properties in order; ${N} and "$N" in lists and dicts are references', () => {
    const sample = only(
      load('1. search("a")\n2. lookup({"from": "${1}", "all": ["$1", 2]})\n3. math("sum", ["$1", "${2}"])'),
    );
    expect(calls(sample)).toEqual([
      { _id: 'call1', _tool: 'search', query: 'a', _outputPath: '†state.call1' },
      {
        _id: 'call2',
        _tool: 'lookup',
        where: { from: '†state.call1', all: ['†state.call1', 2] },
        _outputPath: '†state.call2',
      },
      {
        _id: 'call3',
        _tool: 'math',
        problem: 'sum',
        context: ['†state.call1', '†state.call2'],
        _outputPath: '†state.call3',
      },
    ]);
    expect(sample.warnings).toEqual([]);
    expect(compile(sample.plan as never, { tools: sample.tools.tools as Tool[] }).ok).toBe(true);
  });

  it('refuses a keyword argument with the row error at its column', () => {
    expect(rowErrors(load('1. search(query="x")'))).toEqual([
      { line: 1, message: expect.stringMatching(/^line 1, column 11: a keyword argument \(query=\.\.\.\)/) },
    ]);
  });

  it('refuses more arguments than the tool has properties, naming the tool and the count', () => {
    expect(rowErrors(load('1. search("x", "y")'))).toEqual([
      { line: 1, message: 'line 1, column 11: step 1: search takes 1 argument (query), got 2' },
    ]);
  });

  it('keeps a call to a tool the file does not have, with arg1, arg2, ...; the compiler reports it', () => {
    const sample = only(load('1. translate("hola", "en")'));
    expect(calls(sample)).toEqual([
      { _id: 'call1', _tool: 'translate', arg1: 'hola', arg2: 'en', _outputPath: '†state.call1' },
    ]);
    expect(sample.warnings).toEqual([]);
    const compiled = compile(sample.plan as never, { tools: sample.tools.tools as Tool[] });
    expect(compiled.diagnostics.map((d) => d.code)).toContain('E_UNKNOWN_TOOL');
  });

  it('keeps $N inside a longer string as text, warns, and orders the call after step N', () => {
    const sample = only(load('1. search("a")\n2. search("b")\n3. math("$1 + ${2}", ["$2"])'));
    expect(calls(sample)[2]).toEqual({
      _id: 'call3',
      _tool: 'math',
      problem: '$1 + ${2}',
      context: ['†state.call2'],
      _after: ['call1', 'call2'],
      _outputPath: '†state.call3',
    });
    expect(sample.warnings).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'W_IMPORT_EMBEDDED_REFERENCE',
        line: 3,
        sample: 'llmcompiler-1',
        message: expect.stringContaining('$1, $2'),
      }),
    ]);
  });

  it('warns of a reference to a step that does not come earlier, and keeps its text', () => {
    const sample = only(load('1. search("$1")\n2. math("$3 and $1", ["$7"])'));
    expect(calls(sample).map((c) => [c.query ?? c.problem, c.context, c._after])).toEqual([
      ['$1', undefined, undefined],
      ['$3 and $1', ['$7'], ['call1']],
    ]);
    expect(sample.warnings.map((w) => [w.code, w.line, w.message])).toEqual([
      ['W_IMPORT_UNKNOWN_REFERENCE', 1, expect.stringContaining('step 1: $1 is not an earlier step')],
      ['W_IMPORT_EMBEDDED_REFERENCE', 2, expect.stringContaining('$1')],
      ['W_IMPORT_UNKNOWN_REFERENCE', 2, expect.stringContaining('step 2: $3 is not an earlier step')],
      ['W_IMPORT_UNKNOWN_REFERENCE', 2, expect.stringContaining('step 2: $7 is not an earlier step')],
    ]);
  });

  it("warns that a lone list argument is one argument, not LLMCompiler's spread arguments", () => {
    const sample = only(load('1. lookup(["a", "b"])'));
    expect(calls(sample)[0]!.where).toEqual(['a', 'b']);
    expect(codes(sample)).toEqual(['W_IMPORT_UNSUPPORTED']);
  });
});

describe('the plan text', () => {
  it('ends the plan at join() (arguments warned) or <END_OF_PLAN>; text after the end is warned, not imported', () => {
    const joined = only(load('1. search("a")\n2. join("done")\n3. search("b")'));
    expect(calls(joined)).toHaveLength(1);
    expect(joined.warnings.map((w) => [w.code, w.line])).toEqual([
      ['W_IMPORT_UNSUPPORTED', 2],
      ['W_IMPORT_UNSUPPORTED', 3],
    ]);
    const ended = only(load('1. search("a") # why\n<END_OF_PLAN>\n2. search("b")'));
    expect(calls(ended)).toHaveLength(1);
    expect(ended.warnings.map((w) => w.message)).toEqual([
      'line 3: text after the end of the plan (join() or <END_OF_PLAN>) is not imported',
    ]);
  });

  it('drops Thought: lines without a word, and warns of any other line', () => {
    const sample = only(load('Thought: first\n1. search("a")\nObservation: x\n2. join()'));
    expect(sample.warnings.map((w) => [w.code, w.line, w.message])).toEqual([
      ['W_IMPORT_UNSUPPORTED', 3, 'line 3 is not a step, a Question: or a Thought: line; it is not imported'],
    ]);
  });

  it.each([
    ['1. search("a")\n3. search("b")', 2, 'line 2: step 3 where step 2 was expected'],
    ['1. search("a")\n1. search("b")', 2, 'line 2: step 1 where step 2 was expected'],
    ['2. search("a")', 1, 'line 1: step 2 where step 1 was expected'],
    ['1. search("a") search("b")', 1, "line 1, column 16: text after the call's ')'"],
    ['1. join()<END_OF_PLAN> more', 1, 'line 1, column 23: text after <END_OF_PLAN>'],
    ['1. search "a"', 1, 'line 1: step 1 is not a call tool(arguments)'],
    ['1. search("a")\nQuestion: again', 2, 'line 2: a second Question: in one plan'],
    ['Question: nothing to do', 1, 'the plan has no steps'],
  ])('refuses %j as a row error at line %i', (text, line, message) => {
    expect(rowErrors(load(text))).toEqual([{ line, message }]);
  });

  it('imports the other plans of the file when one is malformed, numbering samples by their place', () => {
    const result = load(
      'Question: one\n1. search("a")\n###\nQuestion: two\n1. search(\n###\n\nQuestion: three\n1. search("c")\n###\n',
    );
    expect(result.samples.map((s) => [s.id, s.task, s.line])).toEqual([
      ['llmcompiler-1', 'one', 1],
      ['llmcompiler-3', 'three', 8],
    ]);
    expect(result.errors).toEqual([
      expect.objectContaining({ code: 'E_IMPORT_ROW', line: 5, sample: 'llmcompiler-2', file: 'data' }),
    ]);
  });

  it('counts lines with CRLF endings and a byte-order mark the same way', () => {
    const result = load('\uFEFFQuestion: q\r\n1. search("a")\r\n###\r\n1. search(\r\n');
    expect(result.samples.map((s) => [s.task, calls(s)[0]!.query])).toEqual([['q', 'a']]);
    expect(rowErrors(result)).toEqual([{ line: 4, message: expect.stringMatching(/^line 4, column 11/) }]);
  });
});

describe('JSONL rows and sample ids', () => {
  const row = (fields: Record<string, unknown>): string =>
    JSON.stringify({ plan: '1. search("a")', ...fields });

  it('reports a malformed row at its line, and imports the others', () => {
    const text = [
      row({ id: 'a' }),
      '{"plan": ',
      '{"id": "b"}',
      row({ question: 'q', task: 't' }),
      row({ id: 'c' }),
    ].join('\n');
    const result = load(text);
    expect(result.samples.map((s) => [s.id, s.line])).toEqual([
      ['a', 1],
      ['c', 5],
    ]);
    expect(result.errors.map((e) => [e.code, e.line, e.sample])).toEqual([
      ['E_IMPORT_ROW', 2, 'llmcompiler-2'],
      ['E_IMPORT_ROW', 3, 'llmcompiler-3'],
      ['E_IMPORT_ROW', 4, 'llmcompiler-4'],
    ]);
    expect(result.errors[1]!.message).toBe('"plan" must be the plan\'s text');
  });

  it('names a plan line and column inside a row', () => {
    const result = load(row({ plan: '1. search("a")\n2. search(b)' }));
    expect(rowErrors(result)).toEqual([
      { line: 1, message: 'plan line 2, column 11: "b" is not a Python literal' },
    ]);
  });

  it('replaces an unsafe id with llmcompiler-<n>, and suffixes a duplicate, warning of each', () => {
    const text = [
      row({ id: 'q' }),
      row({ id: '../q' }),
      row({ id: 'q' }),
      row({ id: 'q' }),
      row({ id: 'llmcompiler-2' }),
      row({ id: 7 }),
    ].join('\n');
    const result = load(text);
    expect(result.samples.map((s) => [s.id, codes(s)])).toEqual([
      ['q', []],
      ['llmcompiler-2', ['W_IMPORT_UNSUPPORTED']],
      ['q-2', ['W_IMPORT_DUPLICATE_ID']],
      ['q-3', ['W_IMPORT_DUPLICATE_ID']],
      ['llmcompiler-2-2', ['W_IMPORT_DUPLICATE_ID']],
      ['7', []],
    ]);
  });

  it('imports at most maxSamples samples; one row error at the first past it names the limit and counts the rest', () => {
    const result = importPlans('llmcompiler', [row({}), row({}), row({}), '{}', row({})].join('\n'), {
      spec: SPEC,
      maxSamples: 2,
    });
    expect(result.samples).toHaveLength(2);
    expect(result.errors).toEqual([
      expect.objectContaining({
        code: 'E_IMPORT_ROW',
        line: 3,
        message: 'more than 2 samples (maxSamples): the sample at line 3 and the 2 after it are not imported',
      }),
    ]);
  });
});
