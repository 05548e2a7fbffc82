/**
 * bench/workflow: a workflow call against running its sub-plan directly, side by side in one
 * process.
 *
 * Each case is a sub-plan of no-op calls (one call; a chain of five; a fan-out of one call and
 * four readers of it). `direct` runs the compiled sub-plan with its input, as a caller that
 * knows the plan would, and reads its output from the final state; `workflow` runs a one-call
 * plan that calls the workflow tool whose plan it is (both compiled once, beforehand). The
 * difference per call is what the workflow adds: the outer run of one call, the argument and
 * output checks, the sub-run's options and the output template filled in. Blocks of each
 * alternate, after a warm-up; the median block is kept. Target: at most 50 µs per call.
 *
 *     npm run bench:workflow      (builds, then runs this)
 */
import { compile, type CompiledPlan } from '../src/compile/index.js';
import { run } from '../src/run/index.js';
import { type Tool, ToolRegistry } from '../src/tools/index.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';

const TARGET_US = 50;
const ITERATIONS = 2_000;
const BLOCKS = 9;

const noop: Tool = { name: 'noop', annotations: { readOnlyHint: true }, execute: (args) => args.n ?? 0 };

interface Case {
  readonly name: string;
  readonly plan: readonly unknown[];
}

const CASES: readonly Case[] = [
  { name: '1 call', plan: [{ _tool: 'noop', n: '†input.n', _outputPath: '†state.out' }] },
  {
    name: 'chain of 5',
    plan: [
      { _tool: 'noop', n: '†input.n', _outputPath: '†state.a' },
      { _tool: 'noop', n: '†state.a', _outputPath: '†state.b' },
      { _tool: 'noop', n: '†state.b', _outputPath: '†state.c' },
      { _tool: 'noop', n: '†state.c', _outputPath: '†state.d' },
      { _tool: 'noop', n: '†state.d', _outputPath: '†state.out' },
    ],
  },
  {
    name: 'fan-out of 5',
    plan: [
      { _tool: 'noop', n: '†input.n', _outputPath: '†state.a' },
      { _tool: 'noop', n: '†state.a', _outputPath: '†state.b' },
      { _tool: 'noop', n: '†state.a', _outputPath: '†state.c' },
      { _tool: 'noop', n: '†state.a', _outputPath: '†state.d' },
      { _tool: 'noop', n: '†state.a', _outputPath: '†state.out' },
    ],
  },
];

function compiled(plan: readonly unknown[], tools: ToolRegistry): CompiledPlan {
  const result = compile(plan, { tools });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.plan!;
}

async function timeBlock(once: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let k = 0; k < ITERATIONS; k++) await once();
  return Number(process.hrtime.bigint() - start) / 1_000 / ITERATIONS;
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  let worst = 0;
  for (const c of CASES) {
    const flow: Tool = {
      name: 'flow',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      plan: c.plan as unknown[],
      output: '†state.out',
    };
    const tools = new ToolRegistry([noop, flow]);
    const sub = compiled(c.plan, tools);
    const outer = compiled([{ _tool: 'flow', n: 1, _outputPath: '†state.r' }], tools);
    const direct = async () => {
      const result = await run(sub, { tools, input: { n: 1 } });
      return result.state.out;
    };
    const viaWorkflow = async () => (await run(outer, { tools })).state.r;
    if ((await direct()) !== (await viaWorkflow())) throw new Error(`${c.name}: the two differ`);
    await timeBlock(direct);
    await timeBlock(viaWorkflow);
    const directUs: number[] = [];
    const workflowUs: number[] = [];
    for (let b = 0; b < BLOCKS; b++) {
      directUs.push(await timeBlock(direct));
      workflowUs.push(await timeBlock(viaWorkflow));
    }
    const d = median(directUs);
    const w = median(workflowUs);
    worst = Math.max(worst, w - d);
    rows.push([c.name, ms(d), ms(w), ms(w - d), w - d <= TARGET_US ? 'yes' : 'NO']);
  }
  console.log(
    `Workflow call vs its sub-plan run directly: µs per call, median of ${BLOCKS} blocks of ${ITERATIONS}`,
  );
  printTable(['sub-plan', 'direct µs', 'workflow µs', 'overhead µs', `<= ${TARGET_US} µs`], rows);
  if (worst > TARGET_US) process.exitCode = 1;
}

await main();
