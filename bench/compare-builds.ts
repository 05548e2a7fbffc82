/**
 * Compares the compile of two builds of planmode in one process, alternating:
 *
 *     npm run build && node dist/bench/compare-builds.js <before> <after> [--shape random] [--calls 100000] [--pairs 12]
 *
 * `<before>` and `<after>` are checkouts with a `dist/` (a `git worktree` of the older commit,
 * built, is the usual `<before>`). Both compile the same plan text, in pairs, the order flipped
 * from one pair to the next (before-after, then after-before), so neither build always pays
 * for the other's garbage or always runs on a busier machine.
 *
 * Why: on a shared 2-core machine a compile's time varies by about a quarter from one process
 * to the next, and a separate process per build gave different answers from run to run. In one
 * process, alternating, two copies of the same build still differ by a few percent in the
 * median; so a change worth keeping shows in both the median and the minimum, and in most pairs.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { benchTools, generatePlan, SHAPES, type Shape } from './plans.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';

/** What this script needs of a build: its compile and its tool registry. */
interface Build {
  readonly label: string;
  readonly compile: (
    text: string,
    options: { tools: unknown },
  ) => { ok: boolean; plan?: { edgeCount: number } };
  readonly tools: unknown;
}

const USAGE =
  'usage: node dist/bench/compare-builds.js <before-dir> <after-dir> [--shape chain|fanout|random] [--calls N] [--pairs N]';

async function loadBuild(label: string, directory: string): Promise<Build> {
  const compilePath = resolve(directory, 'dist/src/compile/index.js');
  const toolsPath = resolve(directory, 'dist/src/tools/index.js');
  for (const path of [compilePath, toolsPath]) {
    if (!existsSync(path)) fail(`${label}: ${path} does not exist; run npm run build in ${directory} first`);
  }
  const { compile } = (await import(pathToFileURL(compilePath).href)) as Pick<Build, 'compile'>;
  const { ToolRegistry } = (await import(pathToFileURL(toolsPath).href)) as {
    ToolRegistry: new (tools: unknown) => unknown;
  };
  return { label, compile, tools: new ToolRegistry(benchTools) };
}

function fail(message: string): never {
  console.error(`compare-builds: ${message}\n${USAGE}`);
  process.exit(2);
}

function positiveInteger(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) fail(`--${name} must be a positive integer, not "${value}"`);
  return n;
}

/** Compiles once; returns the time, after checking that the plan compiled. */
function timeCompile(build: Build, text: string): { ms: number; edges: number } {
  const t = performance.now();
  const result = build.compile(text, { tools: build.tools });
  const elapsed = performance.now() - t;
  if (!result.ok || !result.plan) fail(`${build.label}: the generated plan did not compile`);
  return { ms: elapsed, edges: result.plan.edgeCount };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      shape: { type: 'string', default: 'random' },
      calls: { type: 'string', default: '100000' },
      pairs: { type: 'string', default: '12' },
    },
  });
  if (positionals.length !== 2) fail('give exactly two build directories');
  const shape = values.shape as Shape;
  if (!SHAPES.includes(shape)) fail(`--shape must be one of ${SHAPES.join(', ')}, not "${values.shape}"`);
  const calls = positiveInteger('calls', values.calls);
  const pairs = positiveInteger('pairs', values.pairs);
  const before = await loadBuild('before', positionals[0]!);
  const after = await loadBuild('after', positionals[1]!);
  const text = JSON.stringify(generatePlan(shape, calls), null, 2);

  // A first compile each, untimed: the JIT warms up, and both must build the same graph.
  const edgesBefore = timeCompile(before, text).edges;
  const edgesAfter = timeCompile(after, text).edges;
  if (edgesBefore !== edgesAfter) fail(`the builds found ${edgesBefore} and ${edgesAfter} edges`);

  const beforeTimes: number[] = [];
  const afterTimes: number[] = [];
  let afterFaster = 0;
  for (let p = 0; p < pairs; p++) {
    const order = p % 2 === 0 ? [before, after] : [after, before];
    const times = new Map<Build, number>();
    for (const build of order) times.set(build, timeCompile(build, text).ms);
    beforeTimes.push(times.get(before)!);
    afterTimes.push(times.get(after)!);
    if (times.get(after)! < times.get(before)!) afterFaster++;
  }
  console.log(
    `compare-builds: ${shape}, ${calls.toLocaleString('en-US')} calls, ${pairs} pairs in one process, the order flipped each pair; node ${process.version}\n`,
  );
  printTable(
    ['build', 'directory', 'min ms', 'median ms'],
    [
      ['before', positionals[0]!, ms(Math.min(...beforeTimes)), ms(median(beforeTimes))],
      ['after', positionals[1]!, ms(Math.min(...afterTimes)), ms(median(afterTimes))],
    ],
  );
  // Each pair's ratio compares two compiles made seconds apart, on about the same machine.
  const ratios = afterTimes.map((t, p) => t / beforeTimes[p]!).sort((x, y) => x - y);
  const quartile = (q: number) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))]!;
  console.log(
    `\nafter/before, pair by pair: median ${median(ratios).toFixed(3)} ` +
      `(middle half ${quartile(0.25).toFixed(3)}-${quartile(0.75).toFixed(3)}); ` +
      `after faster in ${afterFaster} of ${pairs} pairs`,
  );
}

await main();
