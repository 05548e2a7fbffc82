import { beforeAll, describe, expect, it } from 'vitest';
import { example, RESEARCH_PLAN, researchTools } from '../../examples/004-research.js';
import type { ExampleOutcome } from '../../examples/example.js';
import { compile, ToolRegistry } from '../../src/index.js';

let outcome: ExampleOutcome;
beforeAll(async () => {
  outcome = await example.run();
});

describe('example 004-research: search, _forEach over a workflow, combine', () => {
  it('reads and summarizes every search result, in result order, and combines them', () => {
    const facts = outcome.facts;
    expect(facts.status).toBe('succeeded');
    expect(facts.calls).toEqual([
      ['search', 'succeeded'],
      ['read', 'succeeded'],
      ['combine', 'succeeded'],
    ]);
    // Three pages are about bees: one sub-plan each.
    expect(facts.elements).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(facts.fetched).toEqual([
      'https://example.org/bees/decline',
      'https://example.org/bees/gardens',
      'https://example.org/bees/pollination',
    ]);
    const summaries = facts.summaries as { title: string; url: string; summary: string }[];
    expect(summaries.map((s) => s.title)).toEqual([
      'How bees pollinate crops',
      'Why wild bee numbers fall',
      'Gardens that feed bees',
    ]);
    expect(summaries[0]).toEqual({
      title: 'How bees pollinate crops',
      url: 'https://example.org/bees/pollination',
      summary: 'Bees carry pollen between flowers while they gather nectar, and about a …',
    });
  });

  it('prints a readable report', () => {
    expect(outcome.lines).toContain('bees: 3 sources');
    expect(outcome.lines.at(-1)).toMatch(/^3\. Gardens that feed bees: A garden with flowers/);
    expect(outcome.lines[1]).toBe(
      'read ran readAndSummarize once per search result: 3 elements, [0] succeeded, [1] succeeded, [2] succeeded',
    );
  });
});

describe("the example's types flow through _forEach over the workflow", () => {
  const tools = new ToolRegistry(researchTools());
  const codesOf = (plan: unknown[]) => compile(plan as never, { tools }).diagnostics.map((d) => d.code);

  it('compiles as written', () => {
    expect(codesOf(RESEARCH_PLAN)).toEqual([]);
  });

  it('refuses a reader of a field the summaries do not have, naming the nearest one', () => {
    const plan = [
      ...RESEARCH_PLAN.slice(0, 2),
      { _tool: 'summarizeText', text: '†state.summaries[0].sumary', maxWords: 5 },
    ];
    const result = compile(plan as never, { tools });
    expect(result.ok).toBe(false);
    const problem = result.diagnostics.find((d) => d.code === 'E_UNRESOLVED')!;
    expect(problem.pointer).toBe('/2/text');
    expect(problem.message).toContain('call "read" (readAndSummarize) writes †state.summaries');
    expect(problem.message).toContain("has no property 'sumary'");
    expect(problem.hint).toBe('did you mean †state.summaries[0].summary?');
  });

  it('refuses a reader that takes the summaries for one summary (an array is no string)', () => {
    const plan = [
      ...RESEARCH_PLAN.slice(0, 2),
      { _tool: 'summarizeText', text: '†state.summaries', maxWords: 5 },
    ];
    expect(codesOf(plan)).toContain('E_REF_TYPE');
  });

  it('refuses †item paths the search results do not have', () => {
    const plan = RESEARCH_PLAN.map((call) => (call._id === 'read' ? { ...call, url: '†item.link' } : call));
    expect(codesOf(plan)).toContain('E_UNRESOLVED');
  });
});
