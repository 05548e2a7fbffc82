/**
 * LLMCompiler plan text is untrusted: a model wrote it. Deep brackets, huge strings and plans of
 * many steps are refused as a row error at their line, in one linear pass with an explicit stack
 * (no stack overflow, no hang: each test's timeout is the guard), and a flood of references is
 * warned of in a bounded list. The whole import never throws.
 */
import { describe, expect, it } from 'vitest';
import { importPlans, type ImportResult } from '../../src/import/index.js';
import { LLMCOMPILER_LIMITS } from '../../src/import/llmcompiler/index.js';

const SPEC = JSON.stringify({
  tools: [
    { name: 'search', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } },
    {
      name: 'math',
      inputSchema: {
        type: 'object',
        properties: { problem: { type: 'string' }, context: { type: 'array' } },
      },
    },
  ],
});

function load(text: string): ImportResult {
  return importPlans('llmcompiler', text, { spec: SPEC });
}

function onlyRowError(result: ImportResult): { line: number; message: string } {
  expect(result.samples).toEqual([]);
  expect(result.errors).toHaveLength(1);
  expect(result.errors[0]!.code).toBe('E_IMPORT_ROW');
  return { line: result.errors[0]!.line, message: result.errors[0]!.message };
}

describe('hostile LLMCompiler plans', () => {
  it('refuses a 10,000-deep nested list at the first bracket past the bound', () => {
    const deep = `1. search(${'['.repeat(10_000)}${']'.repeat(10_000)})`;
    expect(onlyRowError(load(`Question: q\n${deep}`))).toEqual({
      line: 2,
      message: `line 2, column ${11 + LLMCOMPILER_LIMITS.maxDepth}: the arguments nest deeper than ${LLMCOMPILER_LIMITS.maxDepth} brackets`,
    });
    const mixed = `1. search(${'[({"k": '.repeat(5_000)}`;
    expect(onlyRowError(load(mixed)).message).toMatch(/nest deeper than/);
    const row = JSON.stringify({ plan: deep });
    expect(onlyRowError(load(row)).message).toMatch(/^plan line 1, column \d+: the arguments nest deeper/);
  });

  it('refuses a step with a 5 MB string by its length, before reading it', () => {
    const huge = `1. search("${'a'.repeat(5_000_000)}")`;
    expect(onlyRowError(load(huge))).toEqual({
      line: 1,
      message: `line 1: step 1 is longer than ${LLMCOMPILER_LIMITS.maxStepLength} characters`,
    });
    const unclosed = `1. search("${'a'.repeat(LLMCOMPILER_LIMITS.maxStepLength - 20)}`;
    expect(onlyRowError(load(unclosed)).message).toMatch(/^line 1, column 11: the string is not closed/);
  });

  it('refuses a plan of 100,000 steps at the first step past the bound', () => {
    const steps = Array.from({ length: 100_000 }, (_, k) => `${k + 1}. search("a")`).join('\n');
    const next = LLMCOMPILER_LIMITS.maxSteps + 1;
    expect(onlyRowError(load(steps))).toEqual({
      line: next,
      message: `line ${next}: the plan has more than ${LLMCOMPILER_LIMITS.maxSteps} steps`,
    });
  });

  it('reads a step of 200,000 arguments or a 1,000,000-digit number in one pass, and refuses it', () => {
    const many = `1. search(${'"a", '.repeat(200_000)})`;
    expect(onlyRowError(load(many)).message).toBe(
      'line 1, column 11: step 1: search takes 1 argument (query), got 200000',
    );
    const digits = `1. math(${'9'.repeat(1_000_000)})`;
    expect(onlyRowError(load(digits)).message).toMatch(/too large for JSON/);
  });

  it('bounds the warnings of a flood of references to a list and a count', () => {
    const refs = Array.from({ length: 50_000 }, (_, k) => `$${k + 2}`).join(' ');
    const result = load(`1. search("a")\n2. math("${refs} $1")\n3. math("${'$'.repeat(500_000)}")`);
    expect(result.errors).toEqual([]);
    const warnings = result.samples[0]!.warnings;
    expect(warnings).toHaveLength(LLMCOMPILER_LIMITS.maxWarnings + 1);
    expect(warnings.at(-1)!.message).toBe(`and ${50_000 - LLMCOMPILER_LIMITS.maxWarnings + 1} more warnings`);
    const math = (result.samples[0]!.plan.at(-1) as { plan: Record<string, unknown>[] }).plan[1]!;
    expect(math._after).toEqual(['call1']);
    expect(warnings[0]!.message.length).toBeLessThan(400);
  });

  it('names a 100,000-deep JSONL id by its kind, without walking it', () => {
    const id = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const result = load(`{"id": ${id}, "plan": "1. search(\\"a\\")"}`);
    expect(result.errors).toEqual([]);
    expect(result.samples[0]!.warnings.map((w) => w.message)).toEqual([
      "the row's id an array is not a safe folder name; the sample is named llmcompiler-1",
    ]);
  });

  it('reads a file of 400,000 lines one line at a time: separators, stray lines and samples past maxSamples', () => {
    expect(load('###\n\n'.repeat(200_000))).toEqual({ format: 'llmcompiler', samples: [], errors: [] });
    const stray = load(`1. search("a")\n${'x\n'.repeat(400_000)}`);
    expect(stray.samples[0]!.warnings).toHaveLength(LLMCOMPILER_LIMITS.maxWarnings + 1);
    const many = importPlans('llmcompiler', '1. search("a")\n###\n'.repeat(200_000), {
      spec: SPEC,
      maxSamples: 10,
    });
    expect(many.samples).toHaveLength(10);
    expect(many.errors.map((e) => [e.line, e.message])).toEqual([
      [
        21,
        'more than 10 samples (maxSamples): the sample at line 21 and the 199989 after it are not imported',
      ],
    ]);
  });
});
