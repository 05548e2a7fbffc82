/**
 * A workflow's branching calls are scenarios of the dry run, as if they were the caller's: each
 * scenario names the choice made inside a workflow call (`workflowChoices`), its final state and
 * critical path follow it, nested workflows' choices multiply, `maxScenarios` bounds them as it
 * does a flat plan's, and the elements of a `_forEach` over a workflow share one choice.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type Tool } from '../../src/index.js';

const flip: Tool = { name: 'flip', outputSchema: { type: 'number' } };
/** Quick, and returns a string. */
const fast: Tool = { name: 'fast', estimatedMs: 1, outputSchema: { type: 'string', minLength: 1 } };
/** Slow, and returns an integer. */
const slow: Tool = { name: 'slow', estimatedMs: 50, outputSchema: { type: 'integer' } };
/** Wants an integer. */
const need: Tool = {
  name: 'need',
  inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
};
/** `f` picks an arm: the first runs `fast` (a string), the second `slow` (an integer). */
const choose: Tool = {
  name: 'choose',
  plan: [
    { _id: 'f', _tool: 'flip', _outputPath: '†state.a || †state.b' },
    { _id: 'p', _tool: 'fast', x: '†state.a', _outputPath: '†state.r' },
    { _id: 'q', _tool: 'slow', x: '†state.b', _outputPath: '†state.r' },
  ],
  output: '†state.r',
};
/** A branch of its own (`g`), then `choose` inside. */
const nest: Tool = {
  name: 'nest',
  plan: [
    { _id: 'g', _tool: 'flip', _outputPath: '†state.x || †state.y' },
    { _id: 'inner', _tool: 'choose', _outputPath: '†state.r' },
  ],
  output: '†state.r',
};
const tools = [flip, fast, slow, need, choose, nest];

describe('simulate: branching calls inside workflows are scenarios', () => {
  it('a workflow with `a || b` inside gives two scenarios, with its output and critical path per choice', () => {
    const simulation = simulate(
      [
        { _id: 'w', _tool: 'choose', _outputPath: '†state.w' },
        { _id: 'use', _tool: 'need', n: '†state.w' },
      ],
      { tools },
    );
    expect(simulation.scenarios).toHaveLength(2);
    const [first, second] = simulation.scenarios;
    expect(first!.workflowChoices).toEqual([{ within: ['w'], call: 'f', choice: 0, varies: false }]);
    expect(second!.workflowChoices).toEqual([{ within: ['w'], call: 'f', choice: 1, varies: true }]);
    // The plan's own choices: none; every call of the plan runs in both.
    expect(first!.choices).toEqual({});
    expect(second!.run).toEqual(['w', 'use']);
    // The first arm returns `fast`'s string, which `use` rejects; the second `slow`'s integer.
    expect(first!.argumentErrors).toMatchObject([{ call: 'use', path: '/n', writer: 'w' }]);
    expect(second!.argumentErrors).toEqual([]);
    // The heaviest scenario's path: through `slow` inside `w` (1 + 50), then `use`.
    expect(simulation.criticalPath).toEqual(['w', 'use']);
    expect(simulation.criticalPathWeight).toBe(52);
    expect(simulation.branchGroups).toEqual([['w']]);
    // What the baseline walked, as before: the first arm.
    expect(simulation.workflows['w']).toMatchObject({ run: ['f', 'p'], skipped: ['q'] });
  });

  it('the baseline alone would miss the slow arm: with one scenario the path is the quick one', () => {
    const simulation = simulate([{ _id: 'w', _tool: 'choose', _outputPath: '†state.w' }], {
      tools,
      maxScenarios: 1,
    });
    expect(simulation.truncated).toBe(true);
    expect(simulation.criticalPathWeight).toBe(2);
  });

  it('nested workflows: the choices at each depth multiply, each named by the calls down to it', () => {
    const simulation = simulate([{ _id: 'o', _tool: 'nest', _outputPath: '†state.o' }], { tools });
    const named = simulation.scenarios.map((s) =>
      (s.workflowChoices ?? []).map((w) => `${[...w.within, w.call].join('/')}=${w.choice}`).join(' '),
    );
    expect(named).toEqual([
      'o/g=0 o/inner/f=0',
      'o/g=1 o/inner/f=0',
      'o/g=0 o/inner/f=1',
      'o/g=1 o/inner/f=1',
    ]);
    expect(simulation.truncated).toBe(false);
    // g and inner are independent in nest's plan: its duration is the slower, inner's slow arm.
    expect(simulation.criticalPathWeight).toBe(51);
  });

  it('past maxScenarios the simulation is truncated, as a flat plan’s is', () => {
    const nested = simulate([{ _id: 'o', _tool: 'nest', _outputPath: '†state.o' }], {
      tools,
      maxScenarios: 3,
    });
    // Two branches written flat, one group of 4 (a call needs an arm of each).
    const flat = simulate(
      [
        { _id: 'g', _tool: 'flip', _outputPath: '†state.x || †state.y' },
        { _id: 'f', _tool: 'flip', _outputPath: '†state.a || †state.b' },
        { _id: 'j', _tool: 'need', n: '†state.x', m: '†state.a' },
      ],
      { tools, maxScenarios: 3 },
    );
    expect(flat.scenarios).toHaveLength(3);
    expect(flat.truncated).toBe(true);
    expect(nested.scenarios).toHaveLength(3);
    expect(nested.truncated).toBe(true);
  });

  it('two calls of one workflow with the same arguments: each its own choices (the cache keys them)', () => {
    const simulation = simulate(
      [
        { _id: 'w1', _tool: 'choose', _outputPath: '†state.w1' },
        { _id: 'w2', _tool: 'choose', _outputPath: '†state.w2' },
        { _id: 'use1', _tool: 'need', n: '†state.w1' },
        { _id: 'use2', _tool: 'need', n: '†state.w2' },
      ],
      { tools },
    );
    // Independent: baseline, then each one flipped alone (not 2 x 2).
    expect(simulation.branchGroups).toEqual([['w1'], ['w2']]);
    const rows = simulation.scenarios.map((s) => ({
      flipped: (s.workflowChoices ?? []).filter((w) => w.varies).map((w) => w.within[0]),
      errors: s.argumentErrors.map((e) => e.call),
    }));
    expect(rows).toEqual([
      { flipped: [], errors: ['use1', 'use2'] },
      { flipped: ['w1'], errors: ['use2'] },
      { flipped: ['w2'], errors: ['use1'] },
    ]);
  });

  it('a workflow call that runs in one arm of a branch is enumerated with that branch', () => {
    const simulation = simulate(
      [
        { _id: 'top', _tool: 'flip', _outputPath: '†state.l || †state.r' },
        { _id: 'w', _tool: 'choose', x: '†state.r', _outputPath: '†state.w' },
      ],
      { tools },
    );
    expect(simulation.branchGroups).toEqual([['top', 'w']]);
    const rows = simulation.scenarios.map((s) => [s.choices, (s.workflowChoices ?? []).map((w) => w.choice)]);
    // w does not run at top's baseline: its own choice is enumerated where it runs.
    expect(rows).toEqual([
      [{ top: 0 }, []],
      [{ top: 1 }, [0]],
      [{ top: 1 }, [1]],
    ]);
  });

  it('the elements of a _forEach over a workflow take the same choice: one per scenario', () => {
    const list: Tool = {
      name: 'list',
      outputSchema: { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 },
    };
    const simulation = simulate(
      [
        { _id: 'l', _tool: 'list', _outputPath: '†state.l' },
        { _id: 'each', _tool: 'choose', _forEach: '†state.l', x: '†item', _outputPath: '†state.out' },
        { _id: 'use', _tool: 'need', n: '†state.out.0' },
      ],
      { tools: [...tools, list] },
    );
    expect(simulation.forEach['each']!.elements).toBe(3);
    // Baseline, the flipped choice, then the empty array.
    expect(simulation.scenarios.map((s) => s.workflowChoices ?? [])).toEqual([
      [{ within: ['each'], call: 'f', choice: 0, varies: false }],
      [{ within: ['each'], call: 'f', choice: 1, varies: true }],
      [],
    ]);
    expect(simulation.scenarios.map((s) => s.argumentErrors.map((e) => e.call))).toEqual([['use'], [], []]);
    expect(simulation.scenarios[2]!.emptyForEach).toEqual(['each']);
    // Three elements at once (16 lanes), each through `slow` in the heaviest scenario.
    expect(simulation.criticalPathWeight).toBe(1 + 51 + 1);
  });

  it('a plan without workflows has no workflowChoices', () => {
    const simulation = simulate([{ _id: 'f', _tool: 'flip', _outputPath: '†state.a || †state.b' }], {
      tools,
    });
    expect(simulation.scenarios).toHaveLength(2);
    for (const s of simulation.scenarios) expect('workflowChoices' in s).toBe(false);
  });
});
