/**
 * bench/compile: parse + compile plans of 1k, 10k and 100k calls in three shapes.
 *
 * Each case runs in its own child process so that peak memory (max RSS) belongs to that case
 * alone. The baseline, run side by side in the same process on the same text, is JSON.parse:
 * the least any compiler of this format must do. A second one, the floor (object-floor.ts),
 * makes the objects a compiled plan holds and its order with no checks at all: the least a
 * compiler with this output must do. Compile runs as `compile` does by default,
 * type-flow checks included; one more row compiles the 100k random plan with
 * `checkTypes: false`, so the type pass's own cost shows beside it.
 *
 * Targets, per 100k row: under 1 s, at most 8x JSON.parse of the same text, at most 12x
 * growth from 10k to 100k; and peak memory under 400 MB.
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
import { buildObjectsOnly } from './object-floor.js';

interface CaseResult {
  shape: Shape;
  /** False for the row compiled with `checkTypes: false`. */
  checkTypes: boolean;
  calls: number;
  edges: number;
  bytes: number;
  jsonParseMs: number;
  /** The objects-only floor (bench/object-floor.ts), JSON.parse included. */
  floorMs: number;
  /** The first compile in a fresh process: what `plan validate` pays. */
  coldMs: number;
  /** Median of the later compiles, once the JIT has warmed up. */
  compileMs: number;
  /** Peak RSS of the process after its first compile (text, tools, one compiled plan). */
  maxRssMb: number;
}

const SIZES = [1_000, 10_000, 100_000];
/** Odd, so that the median is one of the compiles (of 4, `median` took the third: high). */
const REPEATS = 5;
const TARGET_MS = 1000;
const TARGET_RATIO = 8;
const TARGET_GROWTH = 12;
const TARGET_RSS_MB = 400;
/** The child's shape argument for a case without the type pass: `random:no-types`. */
const NO_TYPES = ':no-types';

/** Runs one case in this process; prints its result as JSON. */
function runCase(shape: Shape, n: number, checkTypes: boolean): CaseResult {
  const text = JSON.stringify(generatePlan(shape, n), null, 2);
  const tools = new ToolRegistry(benchTools);
  const compileOnce = () => {
    const t = performance.now();
    const result = compile(text, { tools, checkTypes });
    const ms = performance.now() - t;
    if (!result.ok) throw new Error(`bench plan did not compile: ${result.diagnostics[0]?.message}`);
    return { ms, edges: result.plan!.edgeCount };
  };
  const first = compileOnce();
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  const floor = buildObjectsOnly(text);
  if (floor.edges !== first.edges) {
    throw new Error(
      `the floor found ${floor.edges} edges, compile ${first.edges}: they built different graphs`,
    );
  }
  const parseTimes: number[] = [];
  const floorTimes: number[] = [];
  const compileTimes: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    let t = performance.now();
    JSON.parse(text);
    parseTimes.push(performance.now() - t);
    t = performance.now();
    buildObjectsOnly(text);
    floorTimes.push(performance.now() - t);
    compileTimes.push(compileOnce().ms);
  }
  return {
    shape,
    checkTypes,
    calls: n,
    edges: first.edges,
    bytes: text.length,
    jsonParseMs: median(parseTimes),
    floorMs: median(floorTimes),
    coldMs: first.ms,
    compileMs: median(compileTimes),
    maxRssMb,
  };
}

function main(): void {
  const [flag, shape, size] = process.argv.slice(2);
  if (flag === '--case') {
    const plain = shape!.endsWith(NO_TYPES) ? shape!.slice(0, -NO_TYPES.length) : shape!;
    console.log(JSON.stringify(runCase(plain as Shape, Number(size), plain === shape)));
    return;
  }
  const self = fileURLToPath(import.meta.url);
  const results: CaseResult[] = [];
  for (const s of SHAPES) {
    for (const n of SIZES) {
      results.push(runChildCase<CaseResult>({ script: self, shape: s, size: n }));
    }
  }
  results.push(runChildCase<CaseResult>({ script: self, shape: `random${NO_TYPES}`, size: 100_000 }));
  const withTypes = (r: CaseResult) => r.checkTypes;
  const growthOf = (r: CaseResult) => {
    const tenK = results.find((x) => withTypes(x) && x.shape === r.shape && x.calls === r.calls / 10);
    return tenK ? r.compileMs / tenK.compileMs : undefined;
  };
  const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const rows = results.map((r) => {
    const ratio = r.compileMs / r.jsonParseMs;
    const growth = growthOf(r);
    // The targets are set for 100k calls; smaller plans are dominated by fixed costs (ajv).
    const judged = r.calls === 100_000;
    return [
      r.shape,
      r.checkTypes ? 'on' : 'off',
      r.calls.toLocaleString('en-US'),
      r.edges.toLocaleString('en-US'),
      `${(r.bytes / 1e6).toFixed(1)} MB`,
      ms(r.jsonParseMs),
      ms(r.floorMs),
      `${(r.floorMs / r.jsonParseMs).toFixed(1)}x`,
      ms(r.coldMs),
      ms(r.compileMs),
      `${ratio.toFixed(1)}x`,
      `${(r.compileMs / r.floorMs).toFixed(1)}x`,
      growth === undefined ? '' : `${growth.toFixed(1)}x`,
      `${((r.compileMs * 1000) / r.calls).toFixed(2)}`,
      r.maxRssMb.toFixed(0),
      judged ? verdict(r.compileMs < TARGET_MS) : '',
      judged ? verdict(ratio <= TARGET_RATIO) : '',
      judged && growth !== undefined ? verdict(growth <= TARGET_GROWTH) : '',
    ];
  });
  console.log(
    `bench/compile: text -> compiled plan (parse, checks against the tool's schema, graph, order, type flow), ` +
      `one child process per row; cold = first compile, warm = median of the next ${REPEATS}; node ${process.version}\n`,
  );
  printTable(
    [
      'shape',
      'types',
      'calls',
      'edges',
      'text',
      'JSON.parse ms',
      'floor ms',
      'floor vs JSON.parse',
      'cold ms',
      'warm ms',
      'warm vs JSON.parse',
      'warm vs floor',
      'growth /10x',
      'us/call',
      'peak RSS MB',
      `< ${TARGET_MS} ms`,
      `<= ${TARGET_RATIO}x parse`,
      `<= ${TARGET_GROWTH}x growth`,
    ],
    rows,
  );
  const judged = results.filter((r) => withTypes(r) && r.calls === 100_000);
  const worst100k = Math.max(...judged.map((r) => r.compileMs));
  const worstRatio = Math.max(...judged.map((r) => r.compileMs / r.jsonParseMs));
  const worstGrowth = Math.max(...judged.map((r) => growthOf(r)!));
  const worstRss = Math.max(...results.map((r) => r.maxRssMb));
  const typed = judged.find((r) => r.shape === 'random')!;
  const untyped = results.find((r) => !withTypes(r))!;
  console.log(
    `\ntargets (warm, 100k, type pass on): compile < ${TARGET_MS} ms: ${ms(worst100k)} ms ${verdict(worst100k < TARGET_MS)}; ` +
      `<= ${TARGET_RATIO}x JSON.parse: ${worstRatio.toFixed(1)}x ${verdict(worstRatio <= TARGET_RATIO)}; ` +
      `growth 10k->100k <= ${TARGET_GROWTH}x: ${worstGrowth.toFixed(1)}x ${verdict(worstGrowth <= TARGET_GROWTH)}; ` +
      `peak RSS < ${TARGET_RSS_MB} MB: ${worstRss.toFixed(0)} MB ${verdict(worstRss < TARGET_RSS_MB)}`,
  );
  console.log(
    `type pass, 100k random: ${ms(typed.compileMs)} ms with it, ${ms(untyped.compileMs)} ms without ` +
      `(${(typed.compileMs - untyped.compileMs).toFixed(0)} ms, ${((100 * (typed.compileMs - untyped.compileMs)) / typed.compileMs).toFixed(0)}% of the compile)`,
  );
}

main();
