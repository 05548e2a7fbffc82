/** The NesTools reader on small hand-written rows: mapping, warnings, and lines that are not rows. */
import { describe, expect, it } from 'vitest';
import { importPlans } from '../../src/import/index.js';
import { compile, ToolRegistry, toolsFromManifest } from '../../src/index.js';

const APIS = [
  {
    api_name: 'scan_isbn',
    api_description: 'Scan a book.',
    parameters: { isbn: { type: 'str', description: 'the ISBN' } },
    required: ['isbn'],
    responses: { book_details: { type: 'str' }, availability: { type: 'bool' } },
  },
  {
    api_name: 'engage',
    parameters: { availability: { type: 'bool' }, where: { type: 'str' }, tags: { type: 'list' } },
    required: ['availability'],
    responses: { minutes: { type: 'int' } },
  },
];

const row = (testId: unknown, call: unknown[], extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ test_id: testId, api: APIS, task: `task ${String(testId)}`, call, ...extra });

function callsOf(document: readonly unknown[]): Record<string, unknown>[] {
  return (document.at(-1) as { plan: Record<string, unknown>[] }).plan;
}

describe('importPlans nestools', () => {
  it('names calls callN and maps API_call_k to the response field it names', () => {
    const text = row(7, [
      { api_name: 'scan_isbn', parameters: { isbn: '978' }, responses: ['API_call_0', 'API_call_1'] },
      {
        api_name: 'engage',
        parameters: { availability: 'API_call_1', where: 'API_call_0', tags: ['API_call_0', 'plain'] },
        responses: ['API_call_2'],
      },
    ]);
    const result = importPlans('nestools', text);
    expect(result.errors).toEqual([]);
    const sample = result.samples[0]!;
    expect(sample.id).toBe('nestools-7');
    expect(sample.task).toBe('task 7');
    expect(sample.warnings).toEqual([]);
    expect(callsOf(sample.plan)).toEqual([
      { _id: 'call1', _tool: 'scan_isbn', isbn: '978', _outputPath: '†state.call1' },
      {
        _id: 'call2',
        _tool: 'engage',
        availability: '†state.call1.availability',
        where: '†state.call1.book_details',
        tags: ['†state.call1.book_details', 'plain'],
        _outputPath: '†state.call2',
      },
    ]);
    expect(sample.tools.tools[1]).toEqual({
      name: 'engage',
      inputSchema: {
        type: 'object',
        properties: { availability: { type: 'boolean' }, where: { type: 'string' }, tags: { type: 'array' } },
        required: ['availability'],
      },
      outputSchema: {
        type: 'object',
        properties: { minutes: { type: 'integer' } },
        required: ['minutes'],
        additionalProperties: false,
      },
    });
    const compiled = compile(sample.plan, {
      tools: new ToolRegistry(toolsFromManifest(sample.tools, 'tools.json')),
    });
    expect(compiled.diagnostics).toEqual([]);
  });

  it('warns about response names that name nothing, and leaves them as text', () => {
    const text = row(1, [
      {
        api_name: 'scan_isbn',
        parameters: { isbn: 'API_call_5' },
        responses: ['API_call_0', 'API_call_1', 'API_call_2'],
      },
      { api_name: 'engage', parameters: { availability: 'API_call_1' }, responses: ['API_call_1'] },
    ]);
    const sample = importPlans('nestools', text).samples[0]!;
    expect(sample.warnings.map((w) => w.code)).toEqual([
      'W_IMPORT_UNKNOWN_REFERENCE',
      'W_IMPORT_UNKNOWN_REFERENCE',
      'W_IMPORT_UNKNOWN_REFERENCE',
    ]);
    expect(sample.warnings.map((w) => w.message)).toEqual([
      'call1 (scan_isbn), argument "isbn": "API_call_5" is no response of an earlier call; it is passed as text',
      'call1 (scan_isbn): the response name "API_call_2" is number 3, but the API returns 2 field(s); it names nothing',
      'call2 (engage): the response name "API_call_1" was given by an earlier call; later arguments read the earlier one',
    ]);
    expect(callsOf(sample.plan)[0]).toMatchObject({ isbn: 'API_call_5' });
  });

  it('reports each bad line with its number and imports the rest', () => {
    const good = row(1, [{ api_name: 'scan_isbn', parameters: { isbn: '1' }, responses: [] }]);
    const text = [good, '{"test_id": 2,', '', '[1, 2]', row(3, [{ parameters: {} }]), row(1, [])].join('\n');
    const result = importPlans('nestools', text);
    expect(result.errors.map((e) => [e.code, e.line])).toEqual([
      ['E_IMPORT_ROW', 2],
      ['E_IMPORT_ROW', 4],
      ['E_IMPORT_ROW', 5],
    ]);
    expect(result.errors[0]!.message).toMatch(/^line 2 is not JSON: .*\(line 2, column \d+\)$/);
    expect(result.errors[2]!.message).toBe(
      'line 5: call 0 must be an object with a non-empty string "api_name"; it is left out',
    );
    // A test_id given twice: the second sample gets another id, and says so.
    expect(result.samples.map((s) => s.id)).toEqual(['nestools-1', 'nestools-1-2']);
    expect(result.samples[1]!.warnings.map((w) => w.code)).toEqual(['W_IMPORT_DUPLICATE_ID']);
  });

  it('uses the line for ids the data does not give safely', () => {
    const text = [row('../../etc', []), row({}, [])].join('\n');
    expect(importPlans('nestools', text).samples.map((s) => s.id)).toEqual([
      'nestools-line1',
      'nestools-line2',
    ]);
  });

  it('gives 20,000 rows of one test_id 20,000 ids, each suffix tried once', () => {
    const line = JSON.stringify({ test_id: 1, api: [], task: 't', call: [] });
    const result = importPlans('nestools', Array.from({ length: 20_000 }, () => line).join('\n'));
    const ids = result.samples.map((s) => s.id);
    expect(new Set(ids).size).toBe(20_000);
    expect(ids.slice(0, 3)).toEqual(['nestools-1', 'nestools-1-2', 'nestools-1-3']);
    expect(ids.at(-1)).toBe('nestools-1-20000');
  });
});
