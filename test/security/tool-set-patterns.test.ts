/**
 * A tool set's schema patterns have a total budget, as a state schema's do: 300 heavy patterns
 * from one MCP server cost 68 s and 3.15 GB. Past the budget, the registry refuses the tools
 * that would take it further, naming each and the pattern, before compiling their patterns.
 */
import { describe, expect, it } from 'vitest';
import { type Tool, ToolDefinitionError, ToolRegistry } from '../../src/index.js';
import { MAX_TOOL_SET_PATTERN_BUDGET } from '../../src/tools/schema-validator.js';

/** A tool whose input's one string has a pattern of about 900 compiled steps, distinct per `i`. */
function heavyTool(i: number, pattern = `^x${i}[a-z0-9_]{900}$`): Tool {
  return {
    name: `t${i}`,
    inputSchema: { type: 'object', properties: { s: { type: 'string', pattern } } },
    execute: () => null,
  };
}

function problemsOf(tools: Tool[]): string[] {
  try {
    new ToolRegistry(tools);
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(ToolDefinitionError);
    return (e as ToolDefinitionError).problems as string[];
  }
}

describe("a tool set's schema patterns", () => {
  it('are refused past the budget, each tool past it named with its pattern', () => {
    const count = 150;
    const problems = problemsOf(Array.from({ length: count }, (_, i) => heavyTool(i)));
    // About 110 fit in the budget; those after are refused, unread.
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.length).toBeLessThan(count - MAX_TOOL_SET_PATTERN_BUDGET / 1_000);
    expect(problems[0]).toMatch(
      new RegExp(
        `^tool 't\\d+': "inputSchema" has a pattern at /properties/s/pattern: the tool set's schema patterns together are past ${MAX_TOOL_SET_PATTERN_BUDGET} characters`,
      ),
    );
  });

  it('count a pattern shared by many tools once', () => {
    const shared = '^[a-z0-9_]{900}$';
    expect(problemsOf(Array.from({ length: 300 }, (_, i) => heavyTool(i, shared)))).toEqual([]);
  });

  it('of an ordinary tool set fit easily', () => {
    const tools = Array.from({ length: 500 }, (_, i) => heavyTool(i, `^id-${i}-[a-z]+$`));
    expect(problemsOf(tools)).toEqual([]);
  });
});
