import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../../src/errors.js';
import { compile } from '../../src/compile/index.js';
import { simulate } from '../../src/simulate/index.js';
import { simulateCompiled } from '../../src/simulate/simulate.js';
import type { Tool } from '../../src/tools/tool.js';

const check: Tool = { name: 'check', outputSchema: { type: 'number' } };
const yes: Tool = { name: 'yes', outputSchema: { type: 'string' } };
const no: Tool = { name: 'no', outputSchema: { type: 'string' } };
const sink: Tool = { name: 'sink', inputSchema: { type: 'object' } };
const TOOLS = [check, yes, no, sink];

/** n independent yes/no branches, each with its own arms, and one call reading every result. */
function independentBranches(n: number) {
  const plan: Record<string, unknown>[] = [];
  const final: Record<string, unknown> = { _id: 'final', _tool: 'sink' };
  for (let i = 0; i < n; i++) {
    plan.push({ _id: `b${i}`, _tool: 'check', _outputPath: `†state.ok${i} || †state.err${i}` });
    plan.push({ _id: `y${i}`, _tool: 'yes', v: `†state.ok${i}`, _outputPath: `†state.r${i}` });
    plan.push({ _id: `n${i}`, _tool: 'no', e: `†state.err${i}`, _outputPath: `†state.r${i}` });
    final[`a${i}`] = `†state.r${i}`;
  }
  plan.push(final);
  return plan;
}

describe('simulate: scenarios', () => {
  it('20 independent binary branches: a baseline and one scenario per branch, not 2^20', () => {
    const simulation = simulate(independentBranches(20), { tools: TOOLS });
    expect(simulation.truncated).toBe(false);
    expect(simulation.scenarios).toHaveLength(21);
    expect(simulation.branchGroups).toHaveLength(20);
    const [baseline, ...flips] = simulation.scenarios;
    expect(baseline!.varies).toEqual([]);
    expect(baseline!.skipped).toEqual(Array.from({ length: 20 }, (_, i) => `n${i}`));
    flips.forEach((s, i) => {
      expect(s.varies).toEqual([`b${i}`]);
      expect(s.choices[`b${i}`]).toBe(1);
      // Only this branch's arms change: y_i skipped, n_i runs; final runs every time.
      expect(s.skipped).toEqual(
        Array.from({ length: 20 }, (_, k) => (k === i ? `y${k}` : `n${k}`)).sort(
          (a, b) => Number(a.slice(1)) - Number(b.slice(1)),
        ),
      );
      expect(s.run).toContain('final');
    });
  });

  it('a join reading from two branches enumerates them together', () => {
    const plan = [
      ...independentBranches(2).slice(0, 6),
      { _id: 'j', _tool: 'sink', x: '†state.ok0 || †state.err1' },
    ];
    const simulation = simulate(plan, { tools: TOOLS });
    expect(simulation.branchGroups).toEqual([['b0', 'b1']]);
    expect(simulation.scenarios.map((s) => [s.choices, s.skipped])).toEqual([
      [{ b0: 0, b1: 0 }, ['n0', 'n1']],
      [{ b0: 1, b1: 0 }, ['y0', 'n1', 'j']],
      [{ b0: 0, b1: 1 }, ['n0', 'y1']],
      [{ b0: 1, b1: 1 }, ['y0', 'y1']],
    ]);
  });

  it('a branch inside a branch: enumerated together, the inner choice only where it runs', () => {
    const plan = [
      { _id: 'outer', _tool: 'check', _outputPath: '†state.a || †state.b' },
      { _id: 'inner', _tool: 'check', x: '†state.a', _outputPath: '†state.c || †state.d' },
      { _id: 'onC', _tool: 'sink', x: '†state.c' },
      { _id: 'onD', _tool: 'sink', x: '†state.d' },
      { _id: 'onB', _tool: 'sink', x: '†state.b' },
    ];
    const simulation = simulate(plan, { tools: TOOLS });
    expect(simulation.branchGroups).toEqual([['outer', 'inner']]);
    // outer=1 skips inner, so inner has no choice there: 3 scenarios, not 4.
    expect(simulation.scenarios.map((s) => [s.choices, s.skipped])).toEqual([
      [{ outer: 0, inner: 0 }, ['onD', 'onB']],
      [{ outer: 1 }, ['inner', 'onC', 'onD']],
      [{ outer: 0, inner: 1 }, ['onC', 'onB']],
    ]);
  });

  it('a call needing two arms of different branches makes them one group', () => {
    const plan = [
      ...independentBranches(2).slice(0, 6),
      { _id: 'both', _tool: 'sink', x: '†state.ok0', y: '†state.err1' },
    ];
    const simulation = simulate(plan, { tools: TOOLS });
    expect(simulation.branchGroups).toEqual([['b0', 'b1']]);
    expect(simulation.scenarios).toHaveLength(4);
    const runsBoth = simulation.scenarios.filter((s) => s.run.includes('both'));
    expect(runsBoth.map((s) => s.choices)).toEqual([{ b0: 0, b1: 1 }]);
  });

  it('maxScenarios bounds the list and sets truncated', () => {
    // One group of 10 binary branches: a join reads from all of them.
    const plan = independentBranches(10);
    plan.push({
      _id: 'join',
      _tool: 'sink',
      x: Array.from({ length: 10 }, (_, i) => `†state.ok${i}`).join(' || '),
    });
    const simulation = simulate(plan, { tools: TOOLS, maxScenarios: 50 });
    expect(simulation.branchGroups).toHaveLength(1);
    expect(simulation.scenarios).toHaveLength(50);
    expect(simulation.truncated).toBe(true);
    const full = simulate(plan, { tools: TOOLS, maxScenarios: 1024 });
    expect(full.scenarios).toHaveLength(1024);
    expect(full.truncated).toBe(false);
    expect(new Set(full.scenarios.map((s) => JSON.stringify(s.choices))).size).toBe(1024);
  });

  it('a declared error alternative: chosen, the error object is written, readers of it run', () => {
    const plan = [
      {
        _id: 'pay',
        _tool: 'check',
        _outputPath: '†state.receipt || †state.failure',
        _onError: '†state.failure',
      },
      { _id: 'tell', _tool: 'sink', message: '†state.failure.message' },
    ];
    const simulation = simulate(plan, { tools: TOOLS });
    expect(simulation.scenarios.map((s) => [s.choices, s.skipped])).toEqual([
      [{ pay: 0 }, ['tell']],
      [{ pay: 1 }, []],
    ]);
  });

  it('a tool that opts out of the error branch writes its sample to the last alternative', () => {
    const plan = [
      { _id: 'pick', _tool: 'pick', _outputPath: '†state.x || †state.y' },
      { _id: 'use', _tool: 'wantsNumber', n: '†state.y' },
    ];
    const tools: Tool[] = [
      { name: 'pick', errorBranch: false, outputSchema: { type: 'number' } },
      { name: 'wantsNumber', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
    ];
    const simulation = simulate(plan, { tools });
    expect(simulation.scenarios[1]!.skipped).toEqual([]);
    expect(simulation.scenarios[1]!.argumentErrors).toEqual([]);
    // With the error branch, y holds {message, code}: not a number.
    const withError = simulate(plan, { tools: [{ ...tools[0]!, errorBranch: true }, tools[1]!] });
    expect(withError.scenarios[1]!.argumentErrors.map((e) => [e.call, e.path, e.writer])).toEqual([
      ['use', '/n', 'pick'],
    ]);
  });

  it('&& fan-out writes every path; no choices', () => {
    const plan = [
      { _id: 'w', _tool: 'check', _outputPath: '†state.a && †state.b' },
      { _id: 'r', _tool: 'sink', x: '†state.a && †state.b' },
    ];
    const simulation = simulate(plan, { tools: TOOLS });
    expect(simulation.scenarios).toEqual([
      expect.objectContaining({ choices: {}, run: ['w', 'r'], skipped: [] }),
    ]);
  });
});

describe('simulate: samples and argument checks', () => {
  const mismatch = [
    { _id: 'temp', _tool: 'thermometer', _outputPath: '†state.temp' },
    { _id: 'say', _tool: 'speak', text: '†state.temp' },
  ];
  const tools: Tool[] = [
    { name: 'thermometer', outputSchema: { type: 'number' } },
    {
      name: 'speak',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
  ];

  it('a writer whose output is a number, read where a string is wanted, is found for every seed', () => {
    const text = JSON.stringify(mismatch, null, 2);
    // compile sees it too (E_REF_TYPE), so simulate() refuses the plan; compiled without the
    // type check, the dry run shows the failure as a run would meet it.
    expect(() => simulate(text, { tools })).toThrow(/E_REF_TYPE/);
    const compiled = compile(text, { tools, checkTypes: false });
    for (const seed of [1, 2, 3, 99, 12345]) {
      const simulation = simulateCompiled(compiled.plan!, compiled.document!.source, { tools, seed });
      const [error] = simulation.scenarios[0]!.argumentErrors;
      expect(error).toMatchObject({
        call: 'say',
        tool: 'speak',
        path: '/text',
        pointer: '/1/text',
        writer: 'temp',
        reference: '†state.temp',
        line: 10,
      });
      expect(error!.message).toMatch(/must be string/);
      expect(error!.message).toMatch(
        /make tool "thermometer"'s outputSchema fit tool "speak"'s inputSchema at \/text/,
      );
      expect(simulation.diagnostics.filter((d) => d.code === 'E_SIM_ARGS')).toEqual([
        expect.objectContaining({ severity: 'error', call: 'say', pointer: '/1/text', line: 10 }),
      ]);
    }
  });

  it('no error when the schemas fit', () => {
    const fits: Tool[] = [{ ...tools[0]!, outputSchema: { type: 'string' } }, tools[1]!];
    expect(simulate(mismatch, { tools: fits }).scenarios[0]!.argumentErrors).toEqual([]);
  });

  it('a tool without outputSchema: unknown output, its reads exist and are not type-checked', () => {
    const plan = [
      { _id: 'temp', _tool: 'thermometer', _outputPath: '†state.temp' },
      { _id: 'say', _tool: 'speak', text: '†state.temp.celsius' },
    ];
    const simulation = simulate(plan, { tools: [{ name: 'thermometer' }, tools[1]!] });
    expect(simulation.samples.temp).toEqual({ source: 'unknown', value: null });
    expect(simulation.scenarios[0]).toMatchObject({ run: ['temp', 'say'], skipped: [], argumentErrors: [] });
  });

  it('a latent call uses its _output', () => {
    const plan = [
      { _id: 'temp', _tool: 'guess', _output: 'warm', _outputPath: '†state.temp' },
      { _id: 'say', _tool: 'speak', text: '†state.temp' },
    ];
    const simulation = simulate(plan, {
      tools: [{ name: 'guess', latent: true, outputSchema: { type: 'number' } }, tools[1]!],
    });
    expect(simulation.samples.temp).toEqual({ source: 'output', value: 'warm' });
    expect(simulation.scenarios[0]!.argumentErrors).toEqual([]);
  });

  it('the same seed gives the same simulation; samples follow the outputSchema', () => {
    const plan = independentBranches(3);
    const tools: Tool[] = [
      {
        name: 'check',
        outputSchema: { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' } } },
      },
      yes,
      no,
      sink,
    ];
    const a = simulate(plan, { tools, seed: 7 });
    const b = simulate(plan, { tools, seed: 7 });
    expect(b).toEqual(a);
    const sample = a.samples.b0!;
    expect(sample.source).toBe('schema');
    expect(sample.value).toEqual({ n: expect.any(Number), s: expect.any(String) });
    expect(Number.isInteger((sample.value as { n: number }).n)).toBe(true);
    // A different seed samples differently (the structure stays).
    const other = simulate(plan, { tools, seed: 8 });
    expect(other.samples.b0!.value).not.toEqual(sample.value);
  });
});

describe('simulate: critical path and parallelism', () => {
  it('weights calls by estimatedMs, 1 without', () => {
    const plan = [
      { _id: 'a', _tool: 'fast', _outputPath: '†state.a' },
      { _id: 'b', _tool: 'slow', _outputPath: '†state.b' },
      { _id: 'c', _tool: 'fast', x: '†state.a', _outputPath: '†state.c' },
      { _id: 'd', _tool: 'fast', x: '†state.c', _outputPath: '†state.d' },
      { _id: 'e', _tool: 'plain', y: '†state.b' },
    ];
    const timed = simulate(plan, {
      tools: [{ name: 'fast', estimatedMs: 10 }, { name: 'slow', estimatedMs: 100 }, { name: 'plain' }],
    });
    expect(timed.criticalPath).toEqual(['b', 'e']);
    expect(timed.criticalPathWeight).toBe(101);
    const counted = simulate(plan, { tools: [{ name: 'fast' }, { name: 'slow' }, { name: 'plain' }] });
    expect(counted.criticalPath).toEqual(['a', 'c', 'd']);
    expect(counted.criticalPathWeight).toBe(3);
    expect(counted.maxParallelism).toBe(2);
    expect(counted.widestLevel).toEqual({ level: 0, calls: ['a', 'b'] });
  });

  it('exclusive branches: the heaviest scenario, never both arms; parallelism counts only calls that run together', () => {
    // Each arm of the branch writes †state.out, so the compiler orders them (write after
    // write) although they never both run; `fan1`/`fan2` run beside the slow arm only.
    const plan = [
      { _id: 'pick', _tool: 'check', _outputPath: '†state.ok || †state.err' },
      { _id: 'quick', _tool: 'quick', v: '†state.ok', _outputPath: '†state.out' },
      { _id: 'slow', _tool: 'slow', v: '†state.err', _outputPath: '†state.out' },
      { _id: 'fan1', _tool: 'quick', v: '†state.err', _outputPath: '†state.f1' },
      { _id: 'fan2', _tool: 'quick', v: '†state.err', _outputPath: '†state.f2' },
      { _id: 'use', _tool: 'quick', v: '†state.out' },
    ];
    const simulation = simulate(plan, {
      tools: [
        { name: 'check', estimatedMs: 5, outputSchema: { type: 'number' } },
        { name: 'quick', estimatedMs: 10, outputSchema: { type: 'number' } },
        { name: 'slow', estimatedMs: 300, outputSchema: { type: 'number' } },
      ],
    });
    expect(simulation.scenarios.map((s) => s.skipped)).toEqual([['slow', 'fan1', 'fan2'], ['quick']]);
    // Not pick -> quick -> slow -> use (325): quick and slow never both run.
    expect(simulation.criticalPath).toEqual(['pick', 'slow', 'use']);
    expect(simulation.criticalPathWeight).toBe(315);
    // In the error scenario slow, fan1 and fan2 run at once, after pick.
    expect(simulation.maxParallelism).toBe(3);
    expect(simulation.widestLevel).toEqual({ level: 1, calls: ['slow', 'fan1', 'fan2'] });
  });

  it('a 100k-call chain: no recursion', () => {
    const plan = Array.from({ length: 100_000 }, (_, i) => ({
      _tool: 'step',
      ...(i > 0 && { a: `†state.v${i - 1}` }),
      _outputPath: `†state.v${i}`,
    }));
    const simulation = simulate(plan, { tools: [{ name: 'step', outputSchema: { type: 'integer' } }] });
    expect(simulation.criticalPath).toHaveLength(100_000);
    expect(simulation.scenarios[0]!.skipped).toEqual([]);
    expect(simulation.maxParallelism).toBe(1);
  });
});

describe('simulate: bad input', () => {
  it('an invalid plan throws PlanValidationError with its diagnostics', () => {
    expect(() => simulate([{ _tool: 'sink', x: '†state.nothing' }], { tools: TOOLS })).toThrow(
      PlanValidationError,
    );
  });

  it('bad options are TypeErrors naming the value', () => {
    expect(() => simulate([], { maxScenarios: 0 })).toThrow(/maxScenarios .* got 0/);
    expect(() => simulate([], { seed: 1.5 })).toThrow(/seed .* got 1.5/);
  });
});
