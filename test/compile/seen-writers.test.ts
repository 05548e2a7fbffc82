/**
 * Which write a read sees when the writers of one path sit on alternatives of different
 * branching calls (seen-writers.ts): a write on an alternative not taken does not happen, and
 * the read then sees an earlier writer's value. For each shape: the writers compile binds the
 * read of `r` to (its edges), and for every scenario of the dry run a run that takes the same
 * alternatives, whose `r` sees the value of the writer the dry run names (or is skipped when the
 * dry run skips it). Across the scenarios the dry run names exactly the writers compile bound:
 * none missing, none too many.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  branch,
  compile,
  type CompiledPlan,
  explainCall,
  run,
  simulate,
  type Tool,
} from '../../src/index.js';

type Call = Record<string, unknown>;

/** A branching call: takes the alternative its input names (`†input.<id>`). */
const choose = (id: string, out: string, from?: string): Call => ({
  _id: id,
  _tool: 'choose',
  pick: `†input.${id}`,
  ...(from && { from }),
  _outputPath: out,
});
/** A call that writes its own id to `out`, once it has `from` (when given). */
const write = (id: string, out: string, from?: string): Call => ({
  _id: id,
  _tool: 'write',
  ...(from && { from }),
  _outputPath: out,
});
const r: Call = { _id: 'r', _tool: 'show', x: '†state.x' };

const runTools: Tool[] = [
  { name: 'choose', execute: ({ pick }) => (pick === 0 ? 'taken' : branch(pick as number, 'taken')) },
  { name: 'write', execute: (_args, { toolCallId }) => `written by ${toolCallId}` },
  { name: 'show', execute: ({ x }) => x },
];
/**
 * The dry run's tools: `show` accepts no `x` at all, so each scenario where it runs has an
 * argument error naming the call whose value it read.
 */
const dryTools: Tool[] = [
  { name: 'choose', inputSchema: { type: 'object' }, outputSchema: { type: 'string' } },
  { name: 'write', inputSchema: { type: 'object' }, outputSchema: { type: 'string' } },
  { name: 'show', inputSchema: { type: 'object', properties: { x: { not: {} } } } },
];

/** The ids of the writers compile binds call `reader`'s read of `at` to. */
function boundWriters(plan: CompiledPlan, reader: string, at = '/x'): string[] {
  const call = plan.calls.find((c) => c.id === reader)!;
  return call.reads
    .filter((read) => read.at === at)
    .flatMap((read) => read.writers.map((w) => plan.calls[w]!.id));
}

/**
 * Runs `calls` in every scenario of the dry run; checks that `r` sees what the dry run says
 * and that the dry run's writers, over all scenarios, are the ones compile bound. Returns them.
 */
async function checkAgainstDryRun(calls: Call[]): Promise<string[]> {
  const branching = calls.filter((c) => c._tool === 'choose').map((c) => c._id as string);
  const baseline = Object.fromEntries(branching.map((id) => [id, 0]));
  const compiled = compile(calls, { tools: runTools, input: baseline });
  expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const bound = boundWriters(compiled.plan!, 'r');
  const dry = simulate(calls, { tools: dryTools, input: baseline, maxScenarios: 1000 });
  expect(dry.truncated).toBe(false);
  const seen = new Set<string>();
  for (const scenario of dry.scenarios) {
    const input = { ...baseline, ...scenario.choices };
    const result = await run(calls, { tools: runTools, input });
    const shown = result.calls.find((c) => c.id === 'r')!;
    const where = `scenario ${JSON.stringify(scenario.choices)}`;
    if (scenario.skipped.includes('r')) {
      expect(shown.status, where).toBe('skipped');
      continue;
    }
    const writer = scenario.argumentErrors.find((e) => e.call === 'r' && e.path === '/x')!.writer!;
    expect(shown.status, where).toBe('succeeded');
    expect(shown.output, where).toBe(`written by ${writer}`);
    expect(bound, where).toContain(writer);
    seen.add(writer);
  }
  expect([...seen].sort()).toEqual([...bound].sort());
  return bound;
}

describe('a read sees the writers of its path on other branching calls', () => {
  it('two branching calls: r depends on both writers (the later one may be skipped)', async () => {
    const calls = [
      choose('c1', '†state.a || †state.b'),
      write('w1', '†state.x', '†state.a'),
      choose('c2', '†state.c || †state.d'),
      write('w2', '†state.x', '†state.c'),
      r,
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['w1', 'w2']);
    // The graph and explain say the same: r waits for both, by the data it reads.
    const plan = compile(calls, { tools: runTools }).plan!;
    const explained = explainCall(plan, 'r').waitsFor.dependencies;
    expect(explained.map((d) => [d.call, d.edges.map((e) => `${e.kind} ${e.path}`)])).toEqual([
      ['w1', ['data †state.x']],
      ['w2', ['data †state.x']],
    ]);
    // The later writer is still ordered after the earlier one (they may both run).
    expect(boundWriters(plan, 'w2', '/from')).toEqual(['c2']);
    const w2 = plan.calls.find((c) => c.id === 'w2')!;
    expect(w2.dependencies.map((d) => `${plan.calls[d.from]!.id} ${d.kind}`)).toEqual([
      'c2 data',
      'w1 order',
    ]);
  });

  it('three branching calls: r depends on all three writers', async () => {
    const calls = [
      choose('c1', '†state.a || †state.b'),
      write('w1', '†state.x', '†state.a'),
      choose('c2', '†state.c || †state.d'),
      write('w2', '†state.x', '†state.c'),
      choose('c3', '†state.e || †state.f'),
      write('w3', '†state.x', '†state.e'),
      r,
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['w1', 'w2', 'w3']);
  });

  it('a read before the writers (a forward reference) waits for every writer it may see', async () => {
    const calls = [
      r,
      choose('c1', '†state.a || †state.b'),
      write('w1', '†state.x', '†state.a'),
      choose('c2', '†state.c || †state.d'),
      write('w2', '†state.x', '†state.c'),
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['w1', 'w2']);
    // Another read before them waits for the same writers (found once per path).
    const plan = compile([{ _id: 'q', _tool: 'show', x: '†state.x' }, ...calls], {
      tools: runTools,
      input: { c1: 0, c2: 0 },
    }).plan!;
    expect(boundWriters(plan, 'q')).toEqual(['w1', 'w2']);
    expect(boundWriters(plan, 'r')).toEqual(['w1', 'w2']);
  });
});

describe('writers that hide the earlier ones', () => {
  it('alternatives of one call stay exclusive: no order between them, r waits for both', async () => {
    const calls = [
      choose('c1', '†state.a || †state.b || †state.c'),
      write('w1', '†state.x', '†state.a'),
      write('w2', '†state.x', '†state.b'),
      r,
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['w1', 'w2']);
    const plan = compile(calls, { tools: runTools }).plan!;
    const w2 = plan.calls.find((c) => c.id === 'w2')!;
    expect(w2.dependencies.map((d) => plan.calls[d.from]!.id)).toEqual(['c1']);
  });

  it('a join on every alternative of one call hides the default written before it', async () => {
    const calls = [
      write('default', '†state.x'),
      choose('c1', '†state.a || †state.b'),
      write('w1', '†state.x', '†state.a'),
      write('w2', '†state.x', '†state.b'),
      r,
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['w1', 'w2']);
  });

  it('a join on some alternatives keeps the default: the others leave it', async () => {
    const calls = [
      write('default', '†state.x'),
      choose('c1', '†state.a || †state.b || †state.c'),
      write('w1', '†state.x', '†state.a'),
      write('w2', '†state.x', '†state.b'),
      r,
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['default', 'w1', 'w2']);
  });

  it('a sure write in between hides both branches’ writers', async () => {
    const calls = [
      choose('c1', '†state.a || †state.b'),
      write('w1', '†state.x', '†state.a'),
      choose('c2', '†state.c || †state.d'),
      write('w2', '†state.x', '†state.c'),
      write('sure', '†state.x'),
      r,
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['sure']);
  });

  it('a sure write before a write on a branch stays seen', async () => {
    const calls = [
      write('sure', '†state.x'),
      choose('c1', '†state.a || †state.b'),
      write('w1', '†state.x', '†state.a'),
      r,
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['sure', 'w1']);
  });

  it('a write that waits for a value written later on a branch hides nothing', async () => {
    // "late" reads †state.z before any call branches: its writer, on alternative a, may not run.
    const calls = [
      write('default', '†state.x'),
      { ...write('late', '†state.x'), from: '†state.z' },
      choose('c1', '†state.a || †state.b'),
      write('wz', '†state.z', '†state.a'),
      r,
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['default', 'late']);
  });

  it('a write on the same alternative hides the earlier one', async () => {
    const calls = [
      choose('c1', '†state.a || †state.b'),
      write('w1', '†state.x', '†state.a'),
      choose('c2', '†state.c || †state.d'),
      write('w2', '†state.x', '†state.c'),
      write('w3', '†state.x', '†state.a'),
      r,
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['w2', 'w3']);
  });
});

describe('nested branches', () => {
  it('a write deeper on the chain does not hide one above it: r depends on both', async () => {
    const calls = [
      choose('c1', '†state.a || †state.b'),
      choose('c2', '†state.c || †state.d', '†state.a'),
      write('w1', '†state.x', '†state.a'),
      write('w2', '†state.x', '†state.c'),
      r,
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['w1', 'w2']);
  });

  it('a write higher on the chain runs whenever one below it does, and hides it', async () => {
    const calls = [
      choose('c1', '†state.a || †state.b'),
      choose('c2', '†state.c || †state.d', '†state.a'),
      write('w1', '†state.x', '†state.c'),
      write('w2', '†state.x', '†state.a'),
      r,
    ];
    expect(await checkAgainstDryRun(calls)).toEqual(['w2']);
  });

  it('a nested join with a writer on another call’s alternative', async () => {
    const calls = [
      choose('c1', '†state.a || †state.b'),
      write('w1', '†state.x', '†state.a'),
      choose('c2', '†state.c || †state.d'),
      choose('c3', '†state.e || †state.f', '†state.c'),
      write('w2', '†state.x', '†state.e'),
      write('w3', '†state.x', '†state.f'),
      write('w4', '†state.x', '†state.d'),
      r,
    ];
    // c2 always writes x through w2, w3 or w4: w1's value is never seen. Compile does not
    // judge a nested join as one (c3's alternatives, then c2's), so it names w1 too: one
    // writer too many, never one too few.
    const plan = compile(calls, { tools: runTools, input: { c1: 0, c2: 0, c3: 0 } }).plan!;
    expect(boundWriters(plan, 'r')).toEqual(['w1', 'w2', 'w3', 'w4']);
  });
});

describe('the type a read sees', () => {
  it('is any of the writers’ it may see: W_REF_TYPE, not E_REF_TYPE, when one of them fits', () => {
    const typed: Tool[] = [
      { name: 'choose', inputSchema: { type: 'object' }, outputSchema: { type: 'string' } },
      { name: 'writeText', inputSchema: { type: 'object' }, outputSchema: { type: 'string' } },
      { name: 'writeNumber', inputSchema: { type: 'object' }, outputSchema: { type: 'number' } },
      {
        name: 'show',
        inputSchema: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] },
      },
    ];
    const calls = [
      choose('c1', '†state.a || †state.b'),
      { ...write('w1', '†state.x', '†state.a'), _tool: 'writeText' },
      choose('c2', '†state.c || †state.d'),
      { ...write('w2', '†state.x', '†state.c'), _tool: 'writeNumber' },
      r,
    ];
    const result = compile(calls, { tools: typed, input: { c1: 0, c2: 0 } });
    expect(result.ok).toBe(true);
    const codes = result.diagnostics.map((d) => `${d.code}@${d.pointer}`);
    expect(codes).toEqual(['W_MULTIPLE_WRITERS@/3/_outputPath', 'W_REF_TYPE@/4/x']);
    // Only when no writer's value can fit is it an error.
    const numbers = typed.map((t) =>
      t.name === 'writeText' ? { ...t, outputSchema: { type: 'number' } } : t,
    );
    const wrong = compile(calls, { tools: numbers, input: { c1: 0, c2: 0 } });
    expect(wrong.diagnostics.map((d) => d.code)).toContain('E_REF_TYPE');
  });
});

describe('for random plans of branching calls writing two paths', () => {
  it('every value a read takes in a dry run comes from a writer compile bound it to', () => {
    // `f` accepts no `x`: each read of one that runs is an argument error naming its writer.
    const tools: Tool[] = [
      {
        name: 'f',
        inputSchema: { type: 'object', properties: { x: { not: {} } } },
        outputSchema: { type: 'string' },
      },
    ];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(5), fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 12 }),
        (choices) => {
          const result = compile(randomWritersPlan(choices), { tools });
          expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
          const plan = result.plan!;
          const dry = simulate(plan, { tools, maxScenarios: 200 });
          for (const scenario of dry.scenarios) {
            for (const e of scenario.argumentErrors) {
              if (e.path !== '/x' || e.writer === null) continue;
              expect(
                boundWriters(plan, e.call),
                `${e.call} in ${JSON.stringify(scenario.choices)}`,
              ).toContain(e.writer);
            }
          }
        },
      ),
      { numRuns: Number(process.env.BRANCH_RUNS ?? 60) },
    );
  });
});

/**
 * Branching calls (some on an alternative of an earlier one, some of three alternatives),
 * writers of `†state.x` or `†state.y` on an alternative or on none, readers of them (some
 * writing the other path), and `||` joins of one call's alternatives that write one of them;
 * every read is of a path written before it.
 */
function randomWritersPlan(choices: readonly (readonly [number, number, number, number])[]): Call[] {
  const calls: Call[] = [];
  const alternatives: string[] = [];
  const written = new Set<string>();
  const target = (n: number) => (n % 2 === 0 ? '†state.x' : '†state.y');
  choices.forEach(([kind, a, b, c], i) => {
    const call: Call = { _id: `c${i}`, _tool: 'f' };
    const some = () => alternatives[a % alternatives.length]!;
    if (kind === 0 || alternatives.length === 0) {
      if (alternatives.length > 0 && b % 2 === 0) call.from = some();
      const paths = [0, 1, ...(c % 3 === 0 ? [2] : [])].map((k) => `†state.b${i}${k}`);
      call._outputPath = paths.join(' || ');
      alternatives.push(...paths);
    } else if (kind === 1 || kind === 2) {
      call.from = some();
      call._outputPath = target(c);
    } else if (kind === 4 && written.has(target(b))) {
      call.x = target(b);
      if (c % 2 === 0) call._outputPath = target(b + 1);
    } else if (kind === 3 || kind === 4) {
      call._outputPath = target(c);
    } else {
      const branchOf = some().slice(0, -1);
      call.from = `${branchOf}0 || ${branchOf}1`;
      call._outputPath = target(c);
    }
    if (typeof call._outputPath === 'string') written.add(call._outputPath);
    calls.push(call);
  });
  // A reader of each path written: a forward read is tested on its own, above.
  for (const path of ['†state.x', '†state.y']) if (written.has(path)) calls.push({ _tool: 'f', x: path });
  return calls;
}
