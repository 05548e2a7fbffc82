/**
 * bench/limits: the biggest inputs the default limits accept, end to end as `plan run --json`
 * does it in process: the plan and the state parsed from JSON text, compiled, run, and the
 * result serialized. The baseline, measured side by side in the same process, is the floor of
 * that work: JSON.parse of the texts and JSON.stringify of what comes back, nothing checked.
 * One child process per row, so each peak RSS is its own.
 *
 *     npm run bench:limits
 */
import { fileURLToPath } from 'node:url';
import { compile } from '../src/compile/index.js';
import { run } from '../src/run/index.js';
import type { Tool } from '../src/tools/index.js';
import { runChildCase } from './child-case.js';
import { generatePlan } from './plans.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';

interface Case {
  readonly name: string;
  /** What the plan does, for the table. */
  readonly plan: string;
  readonly make: () => { planText: string; stateText: string; tools: Tool[] };
}

const MILLION_KEYS = (): string => {
  const state: Record<string, number> = {};
  for (let i = 0; i < 1_000_000; i++) state[`k${i}`] = i;
  return JSON.stringify(state);
};

/** About 50 MB: 100,000 records of about 500 characters. */
const FIFTY_MB = (): string => {
  const records = [];
  for (let i = 0; i < 100_000; i++) {
    records.push({
      id: `r${i}`,
      name: `record number ${i}`,
      tags: ['a', 'b', 'c'],
      body: 'x'.repeat(400),
      n: i,
    });
  }
  return JSON.stringify({ records });
};

const echo: Tool = { name: 'read', execute: (args) => (typeof args.v === 'object' ? 1 : args.v) };

const CASES: readonly Case[] = [
  {
    name: '100k calls',
    plan: 'random DAG, 300k edges, no-op tools',
    make: () => ({
      planText: JSON.stringify(generatePlan('random', 100_000)),
      stateText: '{}',
      tools: [{ name: 'step', execute: (args) => args.n }],
    }),
  },
  {
    name: '50 MB state',
    plan: '10 calls read a record each, 10 read all records',
    make: () => ({
      planText: JSON.stringify([
        ...Array.from({ length: 10 }, (_, i) => ({
          _tool: 'read',
          v: `†state.records[${i * 9_000}].n`,
          _outputPath: `†state.one${i}`,
        })),
        ...Array.from({ length: 10 }, () => ({ _tool: 'read', v: '†state.records' })),
      ]),
      stateText: FIFTY_MB(),
      tools: [echo],
    }),
  },
  {
    name: '50 MB state',
    plan: '10 calls filter all records ([?(@.n < 1000)]), 10 read a slice and descend (..n)',
    make: () => ({
      planText: JSON.stringify([
        ...Array.from({ length: 10 }, (_, i) => ({
          _tool: 'read',
          v: `†state.records[?(@.n < ${1_000 + i})]`,
        })),
        ...Array.from({ length: 10 }, (_, i) => ({
          _tool: 'read',
          v: `†state.records[${i}:${5_000 + i}]..n`,
        })),
      ]),
      stateText: FIFTY_MB(),
      tools: [echo],
    }),
  },
  {
    name: '50 MB state',
    plan: '10 calls descend through all records (..n): each refused (LIMIT) past 100k values',
    make: () => ({
      planText: JSON.stringify(
        Array.from({ length: 10 }, (_, i) => ({ _tool: 'read', v: `†state.records..n`, i })),
      ),
      stateText: FIFTY_MB(),
      tools: [echo],
    }),
  },
  {
    name: '1e6-key state',
    plan: '10 calls read a key each and write one',
    make: () => ({
      planText: JSON.stringify(
        Array.from({ length: 10 }, (_, i) => ({
          _tool: 'read',
          v: `†state.k${i}`,
          _outputPath: `†state.out${i}`,
        })),
      ),
      stateText: MILLION_KEYS(),
      tools: [echo],
    }),
  },
  {
    name: '1e6-key state',
    plan: '10 calls read all of it',
    make: () => ({
      planText: JSON.stringify(Array.from({ length: 10 }, () => ({ _tool: 'read', v: '†state' }))),
      stateText: MILLION_KEYS(),
      tools: [echo],
    }),
  },
  {
    name: '1e6-key state',
    plan: '10 calls read all of it, each writing into it',
    make: () => ({
      planText: JSON.stringify(
        Array.from({ length: 10 }, (_, i) => ({ _tool: 'read', v: '†state', _outputPath: `†state.out${i}` })),
      ),
      stateText: MILLION_KEYS(),
      tools: [echo],
    }),
  },
];

interface Row {
  readonly planmodeMs: number;
  readonly baselineMs: number;
  readonly stateMb: number;
  readonly outputMb: number;
  readonly status: string;
  readonly maxRssMb: number;
}

const REPEATS = 3;

async function runCase(index: number): Promise<Row> {
  const { planText, stateText, tools } = CASES[index]!.make();
  const planmode: number[] = [];
  const baseline: number[] = [];
  let status = '';
  let outputLength = 0;
  for (let r = 0; r < REPEATS; r++) {
    // The floor: reading both texts and writing a result of the state's size.
    let t = performance.now();
    const parsed = JSON.parse(stateText) as Record<string, unknown>;
    JSON.parse(planText);
    JSON.stringify({ status: 'succeeded', state: parsed });
    baseline.push(performance.now() - t);

    t = performance.now();
    const state = JSON.parse(stateText) as Record<string, unknown>;
    const compiled = compile(planText, { tools, state });
    if (!compiled.plan) throw new Error(`the plan did not compile: ${compiled.diagnostics[0]?.message}`);
    const result = await run(compiled.plan, { tools, state });
    // What run --json prints: the state and each call's ending, not its arguments or output.
    const calls = result.calls.map(({ args: _args, output: _output, ...ending }) => ending);
    const output = JSON.stringify({ status: result.status, state: result.state, calls });
    planmode.push(performance.now() - t);
    status = result.status;
    outputLength = output.length;
  }
  return {
    planmodeMs: median(planmode),
    baselineMs: median(baseline),
    stateMb: stateText.length / 1e6,
    outputMb: outputLength / 1e6,
    status,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

async function main(): Promise<void> {
  const [flag, , size] = process.argv.slice(2);
  if (flag === '--case') {
    console.log(JSON.stringify(await runCase(Number(size))));
    return;
  }
  const self = fileURLToPath(import.meta.url);
  const rows = CASES.map((_, i) => runChildCase<Row>({ script: self, shape: 'limits', size: i }));
  console.log(
    `bench/limits: the biggest inputs the default limits accept, as plan run --json handles them in process ` +
      `(parse, compile, run, serialize); baseline = JSON.parse of the plan and state texts and JSON.stringify of the state, ` +
      `nothing checked; median of ${REPEATS}, one child process per row; node ${process.version}\n`,
  );
  printTable(
    [
      'input',
      'plan',
      'state MB',
      'status',
      'baseline ms',
      'planmode ms',
      'planmode/baseline',
      'output MB',
      'peak RSS MB',
    ],
    rows.map((r, i) => [
      CASES[i]!.name,
      CASES[i]!.plan,
      r.stateMb.toFixed(1),
      r.status,
      ms(r.baselineMs),
      ms(r.planmodeMs),
      `${(r.planmodeMs / r.baselineMs).toFixed(1)}x`,
      r.outputMb.toFixed(1),
      r.maxRssMb.toFixed(0),
    ]),
  );
}

await main();
