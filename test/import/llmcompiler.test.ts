/**
 * importPlans('llmcompiler', ...): LLMCompiler's own few-shot plans import as planmode plans
 * that compile against their tools. The fixtures are the PLANNER_PROMPT strings of
 * github.com/SqueezeAILab/LLMCompiler (configs/parallelqa, hotpotqa and movie gpt_prompts.py at
 * commit a00c9d3, MIT), copied unchanged into test/fixtures/import/llmcompiler/ (see its README).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importPlans, type ImportedSample, type ImportResult } from '../../src/import/index.js';
import { compile, type Tool } from '../../src/index.js';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'import', 'llmcompiler');
const SPEC = readFileSync(join(DIR, 'tools.json'), 'utf8');

function importFixture(name: string): ImportResult {
  return importPlans('llmcompiler', readFileSync(join(DIR, `${name}.txt`), 'utf8'), { spec: SPEC });
}

function calls(sample: ImportedSample): Record<string, unknown>[] {
  const message = sample.plan.find((m) => (m as { type: string }).type === 'plan') as {
    plan: Record<string, unknown>[];
  };
  return message.plan;
}

function expectCompiles(sample: ImportedSample): void {
  const result = compile(sample.plan as never, { tools: sample.tools.tools as Tool[] });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(result.ok).toBe(true);
}

describe('LLMCompiler few-shot plans (parallelqa)', () => {
  const result = importFixture('parallelqa');

  it('imports the four well-formed plans, each with its question as the task', () => {
    expect(result.format).toBe('llmcompiler');
    expect(result.samples.map((s) => [s.id, s.line])).toEqual([
      ['llmcompiler-2', 13],
      ['llmcompiler-3', 23],
      ['llmcompiler-4', 32],
      ['llmcompiler-5', 44],
    ]);
    expect(result.samples[0]!.task).toBe(
      "If Mount Everest's height were halved and Mount Kilimanjaro's height were doubled, what would be the difference in their height?",
    );
  });

  it('maps steps to calls, "$N" to †state.callN, and keeps embedded $N as text with _after', () => {
    const everest = result.samples[0]!;
    expect(everest.plan).toEqual([
      { type: 'input', task: everest.task },
      {
        type: 'plan',
        mode: 'lazy',
        plan: [
          { _id: 'call1', _tool: 'search', query: 'Mount Everest', _outputPath: '†state.call1' },
          {
            _id: 'call2',
            _tool: 'math',
            problem: 'half of Mount Everest height in meter?',
            context: ['†state.call1'],
            _outputPath: '†state.call2',
          },
          { _id: 'call3', _tool: 'search', query: 'Mount Kilimanjaro', _outputPath: '†state.call3' },
          {
            _id: 'call4',
            _tool: 'math',
            problem: 'double of Mount Kilimanjaro height in meter?',
            context: ['†state.call3'],
            _outputPath: '†state.call4',
          },
          {
            _id: 'call5',
            _tool: 'math',
            problem: 'abs($3 - $4)',
            _after: ['call3', 'call4'],
            _outputPath: '†state.call5',
          },
        ],
      },
    ]);
    expect(everest.warnings).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'W_IMPORT_EMBEDDED_REFERENCE',
        line: 18,
        sample: 'llmcompiler-2',
        file: 'data',
      }),
    ]);
  });

  it('gives every sample the tools file as its manifest', () => {
    for (const sample of result.samples) expect(sample.tools).toEqual(JSON.parse(SPEC));
  });

  it('reports the first plan, whose steps lack their closing parenthesis, as a row error at its line', () => {
    // `2. math("cheetah max speed ...", ["$1"]` has no ')': LLMCompiler's own regex skips the line.
    expect(result.errors).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'E_IMPORT_ROW',
        line: 3,
        sample: 'llmcompiler-1',
        file: 'data',
        message: expect.stringMatching(/^line 3, column 65: the call is not closed/),
      }),
    ]);
  });

  it('compiles every imported plan against the tools with no error', () => {
    for (const sample of result.samples) expectCompiles(sample);
  });

  it('keeps the data flow: the trench plan compiles to the levels its references imply', () => {
    const trench = result.samples[2]!;
    expect(calls(trench).map((c) => c._id)).toEqual([
      'call1',
      'call2',
      'call3',
      'call4',
      'call5',
      'call6',
      'call7',
    ]);
    const compiled = compile(trench.plan as never, { tools: trench.tools.tools as Tool[] });
    // Searches first, both differences next, their minimum last (through _after).
    expect(compiled.plan!.levels).toEqual([0, 0, 1, 0, 0, 1, 2]);
  });
});

describe('LLMCompiler few-shot plans (hotpotqa, movie)', () => {
  it('imports both hotpotqa plans as two parallel searches; join() and Thought: lines are not calls', () => {
    const result = importFixture('hotpotqa');
    expect(result.errors).toEqual([]);
    expect(result.samples.map((s) => s.id)).toEqual(['llmcompiler-1', 'llmcompiler-2']);
    expect(calls(result.samples[0]!)).toEqual([
      { _id: 'call1', _tool: 'search', query: "Arthur's Magazine", _outputPath: '†state.call1' },
      { _id: 'call2', _tool: 'search', query: 'First for Women (magazine)', _outputPath: '†state.call2' },
    ]);
    for (const sample of result.samples) {
      expect(sample.warnings).toEqual([]);
      expectCompiles(sample);
    }
  });

  it('reads a question over several lines, and refuses the unquoted arguments of the movie plan at their column', () => {
    const result = importFixture('movie');
    expect(result.samples).toEqual([]);
    expect(result.errors).toEqual([
      expect.objectContaining({
        code: 'E_IMPORT_ROW',
        line: 13,
        message: 'line 13, column 11: "Austin" is not a Python literal',
      }),
    ]);
    const quoted = readFileSync(join(DIR, 'movie.txt'), 'utf8').replace(
      /search\(([A-Z][^)"]*)\)/g,
      'search("$1")',
    );
    const fixed = importPlans('llmcompiler', quoted, { spec: SPEC });
    expect(fixed.errors).toEqual([]);
    expect(fixed.samples[0]!.task).toBe(
      'Find a movie similar to Mission Impossible, The Silence of the Lambs, American Beauty, Star Wars Episode IV - A New Hope\n' +
        'Options:\nAustin Powers International Man of Mystery\nAlesha Popvich and Tugarin the Dragon\nIn Cold Blood\nRosetta',
    );
    expect(calls(fixed.samples[0]!)).toHaveLength(8);
    expectCompiles(fixed.samples[0]!);
  });
});

describe('the JSONL form', () => {
  const everest = [
    "1. search('Mount Everest')",
    '2. math("half of Mount Everest height in meter?", ["$1"])',
    'Thought: I can answer the question now.',
    '3. join()<END_OF_PLAN>',
  ].join('\n');

  it('reads {id, question|task, plan} rows, keeping safe ids', () => {
    const text = [
      JSON.stringify({ id: 'everest', question: 'How high?', plan: everest }),
      '',
      JSON.stringify({ task: 'Again', plan: everest }),
      JSON.stringify({ plan: everest }),
    ].join('\n');
    const result = importPlans('llmcompiler', text, { spec: SPEC, mode: 'eager' });
    expect(result.errors).toEqual([]);
    expect(result.samples.map((s) => [s.id, s.task, s.line])).toEqual([
      ['everest', 'How high?', 1],
      ['llmcompiler-2', 'Again', 3],
      ['llmcompiler-3', undefined, 4],
    ]);
    expect(result.samples[2]!.plan).toEqual([
      { type: 'plan', mode: 'eager', plan: calls(result.samples[0]!) },
    ]);
    for (const sample of result.samples) expectCompiles(sample);
  });

  it("takes the plan's Question: line as the task when the row has none", () => {
    const text = JSON.stringify({ plan: `Question: How high?\n${everest}` });
    const result = importPlans('llmcompiler', text, { spec: SPEC });
    expect(result.samples[0]!.task).toBe('How high?');
  });
});
