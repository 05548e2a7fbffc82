/**
 * bench/simulate: the dry run of plans of 1k, 10k and 100k calls in three shapes (the plans of
 * bench/compile, compiled first and not timed). Each case runs in its own child process so
 * that peak memory belongs to it alone. The plans have no branching calls, so each is one
 * walk: this measures sampling, the walk, the argument checks and the critical path.
 *
 *     npm run bench            (builds, then runs this after bench/compile and bench/run)
 */
import { fileURLToPath } from 'node:url';
import { compile } from '../src/compile/index.js';
import { simulate } from '../src/simulate/index.js';
import { ToolRegistry } from '../src/tools/index.js';
import { benchTools, generatePlan, SHAPES, type Shape } from './plans.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';
import { runChildCase } from './child-case.js';

interface CaseResult {
  shape: Shape;
  calls: number;
  scenarios: number;
  criticalPath: number;
  maxParallelism: number;
  compileMs: number;
  /** The first simulation in a fresh process: what `plan simulate` pays after compiling. */
  coldMs: number;
  /** Median of the later simulations. */
  simulateMs: number;
  maxRssMb: number;
}

const SIZES = [1_000, 10_000, 100_000];
const REPEATS = 3;

function runCase(shape: Shape, n: number): CaseResult {
  const tools = new ToolRegistry(benchTools);
  let t = performance.now();
  const compiled = compile(JSON.stringify(generatePlan(shape, n)), { tools });
  const compileMs = performance.now() - t;
  if (!compiled.plan) throw new Error(`bench plan did not compile: ${compiled.diagnostics[0]?.message}`);
  const plan = compiled.plan;
  t = performance.now();
  const first = simulate(plan, { tools });
  const coldMs = performance.now() - t;
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  const times: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    t = performance.now();
    simulate(plan, { tools });
    times.push(performance.now() - t);
  }
  return {
    shape,
    calls: n,
    scenarios: first.scenarios.length,
    criticalPath: first.criticalPath.length,
    maxParallelism: first.maxParallelism,
    compileMs,
    coldMs,
    simulateMs: median(times),
    maxRssMb,
  };
}

function main(): void {
  const [flag, shape, size] = process.argv.slice(2);
  if (flag === '--case') {
    console.log(JSON.stringify(runCase(shape as Shape, Number(size))));
    return;
  }
  const self = fileURLToPath(import.meta.url);
  const results: CaseResult[] = [];
  for (const s of SHAPES) {
    for (const n of SIZES) {
      results.push(runChildCase<CaseResult>({ script: self, shape: s, size: n }));
    }
  }
  console.log(
    `bench/simulate: compiled plan -> simulation (samples, walk, argument checks, critical path), ` +
      `one child process per row; cold = first simulation, warm = median of the next ${REPEATS}; node ${process.version}\n`,
  );
  printTable(
    [
      'shape',
      'calls',
      'scenarios',
      'critical path',
      'max parallelism',
      'compile ms',
      'cold ms',
      'warm ms',
      'warm vs compile',
      'us/call',
      'peak RSS MB',
    ],
    results.map((r) => [
      r.shape,
      r.calls.toLocaleString('en-US'),
      String(r.scenarios),
      r.criticalPath.toLocaleString('en-US'),
      r.maxParallelism.toLocaleString('en-US'),
      ms(r.compileMs),
      ms(r.coldMs),
      ms(r.simulateMs),
      `${(r.simulateMs / r.compileMs).toFixed(1)}x`,
      ((r.simulateMs * 1000) / r.calls).toFixed(2),
      r.maxRssMb.toFixed(0),
    ]),
  );
}

main();
