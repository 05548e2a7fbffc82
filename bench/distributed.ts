/**
 * bench/distributed: the same DAG run by the in-process executor and by `plan worker`
 * processes through BullMQ, side by side in one process run.
 *
 * The layered random 10x20 DAG of bench/run (critical path 10), every call sleeping 20 ms.
 * Each worker process runs up to WORKER_CONCURRENCY jobs at once, so 1, 2 and 4 workers give
 * 5, 10 and 20 slots; the in-process executor runs with the same number of slots
 * (`concurrency`). Redis is a fresh redis-server on a unix socket; the workers are real child
 * processes (`node bin/plan.js worker --quiet`) on the same machine.
 *
 *     npm run bench:distributed        (builds, then runs this; needs redis-server on the PATH)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type CompiledPlan, compile } from '../src/compile/index.js';
import { createDispatcher, type Dispatcher } from '../src/distributed/index.js';
import { run } from '../src/run/index.js';
import { type Tool, ToolRegistry } from '../src/tools/index.js';
import { layeredRandom } from './dags.js';
import { median } from './stats.js';
import { ms, printTable } from './table.js';

const SLEEP_MS = 20;
const WORKER_CONCURRENCY = 5;
const WORKER_COUNTS = [1, 2, 4];
const REPEATS = 5;
/** The scheduler hands out everything ready; the workers' slots are the bound. */
const SCHEDULER_CONCURRENCY = 256;

const BIN = resolve(fileURLToPath(import.meta.url), '../../../bin/plan.js');

const TOOLS_MODULE = `
import { setTimeout as sleep } from 'node:timers/promises';
export const tools = [{ name: 'sleep', inputSchema: { type: 'object' }, execute: async ({ n }) => { await sleep(${SLEEP_MS}); return n; } }];
`;

const sleepTool: Tool<{ n: number }> = {
  name: 'sleep',
  inputSchema: { type: 'object' },
  execute: async ({ n }) => {
    await sleep(SLEEP_MS);
    return n;
  },
};

interface Row {
  workers: number;
  slots: number;
  inProcessMs: number;
  distributedMs: number;
}

/** Resolves when the child writes a line matching `pattern` to stderr. */
function waitForLine(child: ChildProcess, pattern: RegExp, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) {
        child.stderr!.off('data', onData);
        child.off('exit', onExit);
        child.stderr!.resume();
        resolve();
      }
    };
    const onExit = (code: number | null) => reject(new Error(`${what} exited (${code}): ${text}`));
    child.stderr!.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function timed(work: () => Promise<Record<string, unknown>>, plan: CompiledPlan): Promise<number> {
  const t = performance.now();
  const state = await work();
  const elapsed = performance.now() - t;
  for (const call of plan.calls) {
    if (state[`v${call.index}`] !== call.args.n) throw new Error(`call ${call.id} has a wrong result`);
  }
  return elapsed;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'planmode-bench-'));
  const socket = join(dir, 'redis.sock');
  const redis = spawn(
    'redis-server',
    ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const workers: ChildProcess[] = [];
  let dispatcher: Dispatcher | undefined;
  try {
    await waitForLine(redis, /ready to accept connections/i, 'redis-server');
    const url = `unix://${socket}`;
    writeFileSync(join(dir, 'tools.mjs'), TOOLS_MODULE);
    const tools = new ToolRegistry([sleepTool as Tool]);
    const dag = layeredRandom(10, 20);
    const compiled = compile(dag.calls, { tools });
    if (!compiled.ok) throw new Error(`bench plan did not compile: ${compiled.diagnostics[0]?.message}`);
    const plan = compiled.plan!;
    dispatcher = await createDispatcher({ redis: url, queue: 'bench' });
    const remote = dispatcher.invoke;

    const rows: Row[] = [];
    for (const count of WORKER_COUNTS) {
      while (workers.length < count) {
        const worker = spawn(
          process.execPath,
          [
            BIN,
            'worker',
            '--tools',
            join(dir, 'tools.mjs'),
            '--redis',
            url,
            '--queue',
            'bench',
            '--concurrency',
            String(WORKER_CONCURRENCY),
            '--quiet',
          ],
          { stdio: ['ignore', 'ignore', 'pipe'] },
        );
        workers.push(worker);
        await waitForLine(worker, /Ctrl-C stops/, 'plan worker');
      }
      const slots = count * WORKER_CONCURRENCY;
      const inProcess = async () => (await run(plan, { tools, concurrency: slots })).state;
      const distributed = async () =>
        (await run(plan, { tools, concurrency: SCHEDULER_CONCURRENCY, remote })).state;
      await timed(inProcess, plan);
      await timed(distributed, plan);
      const times = { inProcess: [] as number[], distributed: [] as number[] };
      for (let r = 0; r < REPEATS; r++) {
        times.inProcess.push(await timed(inProcess, plan));
        times.distributed.push(await timed(distributed, plan));
      }
      rows.push({
        workers: count,
        slots,
        inProcessMs: median(times.inProcess),
        distributedMs: median(times.distributed),
      });
    }

    console.log(
      `bench/distributed: node ${process.version}; ${dag.name} (${plan.calls.length} calls, ${plan.edgeCount} edges, ` +
        `critical path ${plan.criticalPath.length}), every call sleeps ${SLEEP_MS} ms; each plan worker process runs ` +
        `${WORKER_CONCURRENCY} jobs at once, the in-process executor as many calls as all workers together; Redis on a ` +
        `unix socket; median of ${REPEATS} runs after a warm-up, alternating\n`,
    );
    printTable(
      [
        'workers',
        'slots',
        'in-process ms',
        'distributed ms',
        'distributed/in-process',
        'difference ms',
        'distributed/CP',
      ],
      rows.map((r) => [
        String(r.workers),
        String(r.slots),
        ms(r.inProcessMs),
        ms(r.distributedMs),
        `${(r.distributedMs / r.inProcessMs).toFixed(2)}x`,
        ms(r.distributedMs - r.inProcessMs),
        `${(r.distributedMs / (plan.criticalPath.length * SLEEP_MS)).toFixed(2)}x`,
      ]),
    );
  } finally {
    await dispatcher?.close();
    await Promise.all(workers.map(stop));
    await stop(redis);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
