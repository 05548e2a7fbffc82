/**
 * bench/for-each: one `_forEach` call over 10,000 elements against 10,000 independent calls
 * written out flat, side by side in one process, over the same no-op tools (one answering at
 * once, one answering with a resolved promise). Each plan is compiled once; the time is the
 * run's (median of several, after warm-ups). Target: for-each / flat <= 2.
 *
 *     npm run bench:for-each
 */
import { type CompiledPlan, compile } from '../src/compile/index.js';
import { run } from '../src/run/index.js';
import { type Tool, ToolRegistry } from '../src/tools/index.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';

const ELEMENTS = 10_000;
const WARMUPS = 5;
const REPEATS = 11;
const MAX_RATIO = 2;

const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } as const;
const TOOLS: Record<string, Tool> = {
  sync: { name: 'noop', inputSchema: schema, execute: (args) => args.n },
  async: { name: 'noop', inputSchema: schema, execute: (args) => Promise.resolve(args.n) },
};

function compiled(
  plan: readonly unknown[],
  tools: ToolRegistry,
  input: Record<string, unknown>,
): CompiledPlan {
  const result = compile(plan, { tools, input });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics.slice(0, 3)));
  return result.plan!;
}

async function timeRun(
  plan: CompiledPlan,
  tools: ToolRegistry,
  input: Record<string, unknown>,
): Promise<number> {
  const started = performance.now();
  const result = await run(plan, { tools, input, concurrency: Number.POSITIVE_INFINITY });
  const elapsed = performance.now() - started;
  if (result.status !== 'succeeded') throw new Error(`run ${result.status}`);
  return elapsed;
}

async function main(): Promise<void> {
  const numbers = Array.from({ length: ELEMENTS }, (_, k) => k);
  const input = { numbers };
  const rows: string[][] = [];
  let worst = 0;
  for (const [kind, tool] of Object.entries(TOOLS)) {
    const tools = new ToolRegistry([tool]);
    const flat = compiled(
      numbers.map((k) => ({ _tool: 'noop', n: k, _outputPath: `†state.out${k}` })),
      tools,
      input,
    );
    const forEach = compiled(
      [{ _tool: 'noop', n: '†item', _forEach: '†input.numbers', _outputPath: '†state.out' }],
      tools,
      input,
    );
    const flatTimes: number[] = [];
    const forEachTimes: number[] = [];
    for (let r = 0; r < WARMUPS + REPEATS; r++) {
      // Alternated, so that neither runs always on a warmer or a more littered heap.
      const a = await timeRun(flat, tools, input);
      const b = await timeRun(forEach, tools, input);
      if (r >= WARMUPS) {
        flatTimes.push(a);
        forEachTimes.push(b);
      }
    }
    const flatMs = median(flatTimes);
    const forEachMs = median(forEachTimes);
    const ratio = forEachMs / flatMs;
    worst = Math.max(worst, ratio);
    rows.push([kind, String(ELEMENTS), ms(flatMs), ms(forEachMs), ratio.toFixed(2)]);
  }
  printTable(['tool', 'elements', 'flat calls ms', '_forEach ms', 'for-each / flat'], rows);
  console.log(`\ntarget: for-each / flat <= ${MAX_RATIO}: ${worst <= MAX_RATIO ? 'met' : 'NOT met'}`);
}

await main();
