/** Compiling with workflows: the inputSchema option, chains of workflows and their depth limit. */
import { describe, expect, it } from 'vitest';
import { compile, type Tool, ToolDefinitionError, ToolRegistry } from '../../src/index.js';
import { MAX_WORKFLOW_DEPTH } from '../../src/run/index.js';

const take: Tool = {
  name: 'take',
  inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  execute: (args) => args.n,
};

function problemsOf(make: () => unknown): string[] {
  try {
    make();
  } catch (e) {
    if (e instanceof ToolDefinitionError) return [...e.problems];
    throw e;
  }
  return [];
}

describe('compile with inputSchema', () => {
  it('types †input reads by the schema when no input is given', () => {
    const plan = [{ _tool: 'take', n: '†input.name' }];
    const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const typed = compile(plan, { tools: [take], inputSchema: schema });
    expect(typed.diagnostics.map((d) => d.code)).toEqual(['E_REF_TYPE']);
    expect(compile(plan, { tools: [take] }).ok).toBe(true);
  });
});

describe('chains of workflows', () => {
  it(`refuses a chain deeper than ${MAX_WORKFLOW_DEPTH} workflows, without recursion`, () => {
    const depth = MAX_WORKFLOW_DEPTH + 5;
    const flows: Tool[] = [];
    for (let k = 0; k < depth; k++) {
      const callee = k + 1 < depth ? `w${k + 1}` : 'take';
      flows.push({
        name: `w${k}`,
        plan: [{ _tool: callee, n: 1, _outputPath: '†state.x' }],
        output: '†state.x',
      });
    }
    const problems = problemsOf(() => new ToolRegistry([take, ...flows]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      new RegExp(`^workflow 'w0' calls workflows ${MAX_WORKFLOW_DEPTH + 1} deep \\(w0 → w1 → `),
    );
  });

  it('accepts a chain within the limit, the callees compiled first whatever the definition order', () => {
    const flows: Tool[] = [];
    for (let k = 0; k < 10; k++) {
      const callee = k + 1 < 10 ? `w${k + 1}` : 'take';
      flows.push({
        name: `w${k}`,
        plan: [{ _tool: callee, n: 1, _outputPath: '†state.x' }],
        output: '†state.x',
      });
    }
    expect(problemsOf(() => new ToolRegistry([take, ...flows]))).toEqual([]);
  });

  it('names a longer cycle once, in the order of its calls', () => {
    const flow = (name: string, callee: string): Tool => ({
      name,
      plan: [{ _tool: callee, _outputPath: '†state.x' }],
      output: '†state.x',
    });
    const problems = problemsOf(() => new ToolRegistry([flow('a', 'b'), flow('b', 'c'), flow('c', 'a')]));
    expect(problems).toEqual([
      "workflow 'a' reaches itself: a → b → c → a; a workflow may not call itself, directly or through others",
    ]);
  });
});
