/**
 * Branch-aware graphs: writers on exclusive `||` alternatives are not ordered after each other
 * (they never both run), so the compiled critical path is one that can happen, the same the dry
 * run finds; and a run still never lets two writers of one path both run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import type { CompiledPlan } from '../../src/compile/types.js';
import { branch, run, type Tool } from '../../src/index.js';
import { simulate } from '../../src/simulate/index.js';
import { exampleNames, loadExample } from '../fixtures/fixtures.js';

const ids = (plan: CompiledPlan, indices: readonly number[]) => indices.map((i) => plan.calls[i]!.id);

function edges(plan: CompiledPlan): string[] {
  return plan.calls.flatMap((call) =>
    call.dependencies.map((d) => `${plan.calls[d.from]!.id} -${d.kind}-> ${call.id} ${d.path}`),
  );
}

/** Tools without estimates: the dry run's heaviest path is then its longest by count, as compile's. */
function unweighted(tools: readonly Tool[]): Tool[] {
  return tools.map(({ estimatedMs: _, ...rest }) => rest as Tool);
}

const weather = loadExample('weather-branch');

describe('writers on exclusive alternatives', () => {
  it('get no write-after-write edge; the join waits for both', () => {
    const { plan } = compile(weather.text, { tools: weather.tools, input: weather.input });
    expect(edges(plan!)).toEqual([
      'weather -data-> park †state.sunny',
      'weather -data-> movie †state.notSunny',
      'park -data-> present †state.suggestion',
      'movie -data-> present †state.suggestion',
    ]);
    expect(ids(plan!, plan!.criticalPath)).toEqual(['weather', 'park', 'present']);
    expect(plan!.levels).toEqual([0, 1, 1, 2]);
  });

  it('a later writer on no alternative is ordered after both', () => {
    const plan = JSON.parse(weather.text) as { plan: Record<string, unknown>[] };
    plan.plan.push({
      _id: 'reset',
      _tool: 'presentSuggestion',
      suggestion: { kind: 'park', name: 'x' },
      _outputPath: '†state.suggestion',
    });
    const compiled = compile(plan, { tools: weather.tools, input: weather.input }).plan!;
    expect(edges(compiled).filter((e) => e.includes('-> reset'))).toEqual([
      'park -order-> reset †state.suggestion',
      'movie -order-> reset †state.suggestion',
      'present -order-> reset †state.suggestion',
    ]);
  });

  it('keeps the edge when the alternative read may hold a value from elsewhere', () => {
    // The initial state holds †state.notSunny: movie may run whatever the weather says.
    const fromState = compile(weather.text, {
      tools: weather.tools,
      input: weather.input,
      state: { notSunny: { condition: 'rain' } },
    }).plan!;
    expect(edges(fromState)).toContain('park -order-> movie †state.suggestion');
    // An earlier call writes †state.notSunny: the branch does not decide alone either.
    const plan = JSON.parse(weather.text) as { plan: Record<string, unknown>[] };
    plan.plan.unshift({ _id: 'guess', _tool: 'getWeather', city: 'x', _outputPath: '†state.notSunny' });
    const fromCall = compile(plan, { tools: weather.tools, input: weather.input }).plan!;
    expect(edges(fromCall)).toContain('park -order-> movie †state.suggestion');
  });

  it('a call that needs both alternatives never runs, and is on no critical path', () => {
    const plan = {
      type: 'plan',
      plan: [
        { _id: 'w', _tool: 'f', _outputPath: '†state.a || †state.b' },
        { _id: 'both', _tool: 'f', x: '†state.a', y: '†state.b', _outputPath: '†state.c' },
        { _id: 'after', _tool: 'f', x: '†state.c', _outputPath: '†state.d' },
        { _id: 'one', _tool: 'f', x: '†state.a', _outputPath: '†state.e' },
      ],
    };
    const options = { tools: [{ name: 'f', inputSchema: { type: 'object' } } as Tool] };
    const compiled = compile(plan, options).plan!;
    expect(ids(compiled, compiled.criticalPath)).toEqual(['w', 'one']);
    expect(compiled.levels).toEqual([0, 1, 2, 1]);
    expect(simulate(plan, options).criticalPath).toEqual(['w', 'one']);
  });

  it('a call whose `||` reads only alternatives of a call that never runs never runs either', () => {
    // Found by the property test: "join" reads `†state.p || †state.q`, and only "branch" writes
    // them, which needs both alternatives of "w". The critical path went w, one, join (on
    // through the wait that "both" and "branch" pass on): longer than any path that can happen.
    const plan = {
      type: 'plan',
      plan: [
        { _id: 'w', _tool: 'f', _outputPath: '†state.a || †state.b' },
        { _id: 'one', _tool: 'f', x: '†state.b', _outputPath: '†state.v' },
        { _id: 'both', _tool: 'f', x: '†state.a', y: '†state.v', _outputPath: '†state.c' },
        { _id: 'branch', _tool: 'f', x: '†state.c', _outputPath: '†state.p || †state.q' },
        { _id: 'join', _tool: 'f', x: '†state.p || †state.q', _outputPath: '†state.d' },
        { _id: 'other', _tool: 'f', x: '†state.a', _outputPath: '†state.e' },
      ],
    };
    const options = { tools: [{ name: 'f', inputSchema: { type: 'object' } } as Tool] };
    const compiled = compile(plan, options).plan!;
    const dry = simulate(plan, options);
    expect(dry.scenarios.filter((s) => s.run.includes('join'))).toEqual([]);
    expect(ids(compiled, compiled.criticalPath)).toEqual(['w', 'one']);
    expect(dry.criticalPathWeight).toBe(2);
  });

  it('a call that never runs keeps its write-after-write edge, whichever alternative it read first', () => {
    // "late" needs both alternatives of "w"; its guards hold the one it read first, which
    // depends on the order of its arguments. Found by the property test: the edge from
    // "early" (on alternative a) was dropped when "late" read †state.b first.
    for (const [first, second] of [
      ['†state.b', '†state.a'],
      ['†state.a', '†state.b'],
    ]) {
      const plan = [
        { _id: 'w', _tool: 'f', _outputPath: '†state.a || †state.b' },
        { _id: 'early', _tool: 'f', x: '†state.a', _outputPath: '†state.out' },
        { _id: 'late', _tool: 'f', x: first, nested: { y: second }, _outputPath: '†state.out' },
      ];
      const compiled = compile(plan).plan!;
      expect(edges(compiled)).toContain('early -order-> late †state.out');
      // And "late" does need both: it runs in no scenario of the dry run.
      const scenarios = simulate(plan).scenarios;
      expect(scenarios.length).toBeGreaterThan(1);
      expect(scenarios.filter((s) => s.run.includes('late'))).toEqual([]);
    }
  });

  it('is deterministic and acyclic', () => {
    const a = compile(weather.text, { tools: weather.tools, input: weather.input }).plan!;
    const b = compile(weather.text, { tools: weather.tools, input: weather.input }).plan!;
    expect(edges(a)).toEqual(edges(b));
    expect(a.order.length).toBe(a.calls.length);
  });
});

describe("compile's critical path is the dry run's", () => {
  for (const name of exampleNames()) {
    it(name, () => {
      const e = loadExample(name);
      const options = { tools: unweighted(e.tools), input: e.input, ...(e.state && { state: e.state }) };
      const { plan } = compile(e.text, options);
      expect(ids(plan!, plan!.criticalPath)).toEqual(simulate(e.text, options).criticalPath);
    });
  }

  it('for random branching plans', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(4), fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 10 }),
        (choices) => {
          const plan = randomBranchingPlan(choices);
          const options = { tools: [{ name: 'f', inputSchema: { type: 'object' } } as Tool] };
          const result = compile(plan, options);
          expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
          const compiled = result.plan!;
          expect(compiled.order.length).toBe(compiled.calls.length);
          const dry = simulate(plan, options);
          const path = ids(compiled, compiled.criticalPath);
          // Never shorter than a chain that runs: the graph holds every scenario's chains.
          expect(path.length).toBeGreaterThanOrEqual(dry.criticalPathWeight);
          // Equal, and a path that can happen, unless an edge joins two calls that never run
          // together (a reader on one alternative before a writer on another of what it read:
          // that order keeps the reader from seeing the other alternative's value).
          const together = (a: string, b: string) =>
            dry.scenarios.some((s) => s.run.includes(a) && s.run.includes(b));
          const runs = new Set(dry.scenarios.flatMap((s) => s.run));
          const apart = compiled.calls.some((call) =>
            call.dependencies.some((d) => {
              const from = compiled.calls[d.from]!.id;
              return runs.has(from) && runs.has(call.id) && !together(from, call.id);
            }),
          );
          // A call that overwrites another's write (W_MULTIPLE_WRITERS) makes the path's value
          // come from either writer: compile takes no guard through it, so a reader that needs
          // two alternatives that way is not known to never run, and may lengthen the path.
          const overwrites = result.diagnostics.some((d) => d.code === 'W_MULTIPLE_WRITERS');
          if (!apart && !overwrites) {
            expect(path.length).toBe(dry.criticalPathWeight);
            // Each step of the path happens: its two calls run together in some scenario. (The
            // dry run samples scenarios, each alternative at least once, not every combination of
            // them, so a whole path can happen without being one of its scenarios.)
            for (let k = 1; k < path.length; k++) expect(together(path[k - 1]!, path[k]!)).toBe(true);
          }
          // Paths of equal length on different alternatives tie: the dry run keeps its first
          // scenario's (every branch on its first alternative), compile the one that ends first
          // in array order. The length and that it can happen are what must agree.
        },
      ),
      { numRuns: Number(process.env.BRANCH_RUNS ?? 40) },
    );
  });
});

/**
 * A plan of branching calls (`†state.bN0 || †state.bN1`), arms that read one alternative and
 * write their own value or the branch's join path, plain readers, and `||` joins.
 */
function randomBranchingPlan(choices: readonly (readonly [number, number, number, number])[]) {
  const calls: Record<string, unknown>[] = [];
  const branches: number[] = [];
  const readable: string[] = [];
  choices.forEach(([kind, a, b, c], i) => {
    const call: Record<string, unknown> = { _id: `c${i}`, _tool: 'f' };
    if (kind === 0 || branches.length === 0) {
      if (readable.length > 0 && b % 2 === 0) call.x = readable[a % readable.length];
      call._outputPath = `†state.b${i}0 || †state.b${i}1`;
      branches.push(i);
      readable.push(`†state.b${i}0`, `†state.b${i}1`);
    } else if (kind === 1 || kind === 2) {
      const k = branches[a % branches.length]!;
      call.x = `†state.b${k}${b % 2}`;
      const out = c % 3 === 0 ? `†state.v${i}` : `†state.j${k}`;
      call._outputPath = out;
      if (!readable.includes(out)) readable.push(out);
    } else if (kind === 3) {
      call.x = readable[a % readable.length];
      if (c % 2 === 0) call.y = readable[b % readable.length];
      call._outputPath = `†state.v${i}`;
      readable.push(`†state.v${i}`);
    } else {
      const k = branches[a % branches.length]!;
      call.x = `†state.b${k}0 || †state.b${k}1`;
      call._outputPath = `†state.v${i}`;
      readable.push(`†state.v${i}`);
    }
    calls.push(call);
  });
  return { type: 'plan', plan: calls };
}

describe('a run never lets two exclusive writers both run', () => {
  function tools(sunny: boolean, log: string[]): Tool[] {
    const t = (name: string, fn: (args: Record<string, unknown>) => unknown): Tool => ({
      name,
      execute: async (args: Record<string, unknown>) => {
        log.push(name);
        return fn(args);
      },
    });
    return [
      t('getWeather', () => (sunny ? { condition: 'sunny' } : branch(1, { condition: 'rain' }))),
      t('findPark', () => 'park'),
      t('findMovie', () => 'movie'),
      t('presentSuggestion', (args) => `see ${String(args.suggestion)}`),
      t('step', (args) => `${String(args.v)}+`),
    ];
  }

  for (const sunny of [true, false]) {
    it(`the weather plan, ${sunny ? 'sunny' : 'not sunny'}`, async () => {
      const log: string[] = [];
      const result = await run(weather.text, { tools: tools(sunny, log), input: weather.input });
      expect(result.status).toBe('succeeded');
      const status = Object.fromEntries(result.calls.map((c) => [c.id, c.status]));
      expect(status.park).toBe(sunny ? 'succeeded' : 'skipped');
      expect(status.movie).toBe(sunny ? 'skipped' : 'succeeded');
      expect(log).toEqual(['getWeather', sunny ? 'findPark' : 'findMovie', 'presentSuggestion']);
      expect(result.state.suggestion).toBe(sunny ? 'park' : 'movie');
      expect(result.calls.find((c) => c.id === 'present')!.output).toBe(`see ${sunny ? 'park' : 'movie'}`);
    });

    it(`arms of two calls each that join on one path, ${sunny ? 'first' : 'second'} alternative`, async () => {
      const plan = {
        type: 'plan',
        plan: [
          { _id: 'w', _tool: 'getWeather', _outputPath: '†state.a || †state.b' },
          { _id: 'a1', _tool: 'findPark', x: '†state.a', _outputPath: '†state.pa' },
          { _id: 'b1', _tool: 'findMovie', x: '†state.b', _outputPath: '†state.pb' },
          { _id: 'a2', _tool: 'step', v: '†state.pa', _outputPath: '†state.out' },
          { _id: 'b2', _tool: 'step', v: '†state.pb', _outputPath: '†state.out' },
          { _id: 'join', _tool: 'presentSuggestion', suggestion: '†state.out' },
        ],
      };
      const { plan: compiled } = compile(plan, { tools: tools(sunny, []) });
      expect(edges(compiled!).filter((e) => e.includes('a2 -') || e.includes('b2 -'))).toEqual([
        'a2 -data-> join †state.out',
        'b2 -data-> join †state.out',
      ]);
      expect(ids(compiled!, compiled!.criticalPath)).toEqual(['w', 'a1', 'a2', 'join']);
      const log: string[] = [];
      const result = await run(plan, { tools: tools(sunny, log) });
      expect(result.status).toBe('succeeded');
      expect(log).toEqual(['getWeather', sunny ? 'findPark' : 'findMovie', 'step', 'presentSuggestion']);
      expect(result.state.out).toBe(sunny ? 'park+' : 'movie+');
      expect(result.calls.find((c) => c.id === 'join')!.output).toBe(`see ${sunny ? 'park' : 'movie'}+`);
    });
  }
});
