/**
 * The dry run an approval request carries (`simulation`): its scenarios name the branches taken
 * inside workflow calls as the dry run does, so a person approving over HTTP sees them too.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type Tool } from '../../src/index.js';
import { simulationSummary } from '../../src/serve/approval-views.js';

const flip: Tool = { name: 'flip', outputSchema: { type: 'number' } };
const echo: Tool = { name: 'echo', outputSchema: { type: 'string' } };
const choose: Tool = {
  name: 'choose',
  plan: [
    { _id: 'f', _tool: 'flip', _outputPath: '†state.a || †state.b' },
    { _id: 'p', _tool: 'echo', x: '†state.a', _outputPath: '†state.r' },
    { _id: 'q', _tool: 'echo', x: '†state.b', _outputPath: '†state.r' },
  ],
  output: '†state.r',
};

describe('simulationSummary', () => {
  it('carries the choices made inside workflow calls, per scenario', () => {
    const simulation = simulate([{ _id: 'w', _tool: 'choose', _outputPath: '†state.w' }], {
      tools: [flip, echo, choose],
    });
    const summary = simulationSummary(simulation) as { scenarios: { workflowChoices?: unknown }[] };
    expect(summary.scenarios.map((s) => s.workflowChoices)).toEqual([
      [{ within: ['w'], call: 'f', choice: 0, varies: false }],
      [{ within: ['w'], call: 'f', choice: 1, varies: true }],
    ]);
  });

  it('a plan without workflows keeps its scenarios as they were', () => {
    const simulation = simulate([{ _id: 'f', _tool: 'flip', _outputPath: '†state.a || †state.b' }], {
      tools: [flip],
    });
    const summary = simulationSummary(simulation) as { scenarios: object[] };
    expect(summary.scenarios).toEqual([
      { run: ['f'], skipped: [], choices: { f: 0 } },
      { run: ['f'], skipped: [], choices: { f: 1 } },
    ]);
  });
});
