/**
 * bench/compile: parse + compile plans of 1k, 10k and 100k calls in three shapes.
 *
 * Each case runs in its own child process so that peak memory (max RSS) belongs to that case
 * alone. The baseline, run side by side in the same process on the same text, is JSON.parse:
 * the least any compiler of this format must do. Targets (issue 2): every 100k plan under
 * 1 s, at most 12x growth from 10k to 100k, peak memory under 400 MB.
 *
 *     npm run bench            (builds, then runs this)
 */
import { fileURLToPath } from 'node:url';
import { compile } from '../src/compile/index.js';
import { ToolRegistry } from '../src/tools/index.js';
import { benchTools, generatePlan, SHAPES, type Shape } from './plans.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';
import { runChildCase } from './child-case.js';

interface CaseResult {
  shape: Shape;
  calls: number;
  edges: number;
  bytes: number;
  jsonParseMs: number;
  /** The first compile in a fresh process: what `plan validate` pays. */
  coldMs: number;
  /** Median of the later compiles, once the JIT has warmed up. */
  compileMs: number;
  /** Peak RSS of the process after its first compile (text, tools, one compiled plan). */
  maxRssMb: number;
}

const SIZES = [1_000, 10_000, 100_000];
const REPEATS = 4;

/** Runs one case in this process; prints its result as JSON. */
function runCase(shape: Shape, n: number): CaseResult {
  const text = JSON.stringify(generatePlan(shape, n), null, 2);
  const tools = new ToolRegistry(benchTools);
  const compileOnce = () => {
    const t = performance.now();
    const result = compile(text, { tools });
    const ms = performance.now() - t;
    if (!result.ok) throw new Error(`bench plan did not compile: ${result.diagnostics[0]?.message}`);
    return { ms, edges: result.plan!.edgeCount };
  };
  const first = compileOnce();
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  const parseTimes: number[] = [];
  const compileTimes: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const t = performance.now();
    JSON.parse(text);
    parseTimes.push(performance.now() - t);
    compileTimes.push(compileOnce().ms);
  }
  return {
    shape,
    calls: n,
    edges: first.edges,
    bytes: text.length,
    jsonParseMs: median(parseTimes),
    coldMs: first.ms,
    compileMs: median(compileTimes),
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
  const rows = results.map((r) => {
    const tenK = results.find((x) => x.shape === r.shape && x.calls === r.calls / 10);
    return [
      r.shape,
      r.calls.toLocaleString('en-US'),
      r.edges.toLocaleString('en-US'),
      `${(r.bytes / 1e6).toFixed(1)} MB`,
      ms(r.jsonParseMs),
      ms(r.coldMs),
      ms(r.compileMs),
      `${(r.compileMs / r.jsonParseMs).toFixed(1)}x`,
      tenK ? `${(r.compileMs / tenK.compileMs).toFixed(1)}x` : '',
      `${((r.compileMs * 1000) / r.calls).toFixed(2)}`,
      r.maxRssMb.toFixed(0),
    ];
  });
  console.log(
    `bench/compile: text -> compiled plan (parse, checks against the tool's schema, graph, order), ` +
      `one child process per row; cold = first compile, warm = median of the next ${REPEATS}; node ${process.version}\n`,
  );
  printTable(
    [
      'shape',
      'calls',
      'edges',
      'text',
      'JSON.parse ms',
      'cold ms',
      'warm ms',
      'warm vs JSON.parse',
      'growth /10x',
      'us/call',
      'peak RSS MB',
    ],
    rows,
  );
  const worst100k = Math.max(...results.filter((r) => r.calls === 100_000).map((r) => r.compileMs));
  const worstGrowth = Math.max(
    ...results
      .filter((r) => r.calls === 100_000)
      .map((r) => r.compileMs / results.find((x) => x.shape === r.shape && x.calls === 10_000)!.compileMs),
  );
  const worstRss = Math.max(...results.map((r) => r.maxRssMb));
  console.log(
    `\ntargets (warm): 100k compile < 1000 ms: ${ms(worst100k)} ms ${worst100k < 1000 ? 'ok' : 'MISSED'}; ` +
      `growth 10k->100k <= 12x: ${worstGrowth.toFixed(1)}x ${worstGrowth <= 12 ? 'ok' : 'MISSED'}; ` +
      `peak RSS < 400 MB: ${worstRss.toFixed(0)} MB ${worstRss < 400 ? 'ok' : 'MISSED'}`,
  );
}

main();
