/**
 * `plan run --redis` and `plan worker` as real processes against a real redis-server: a worker
 * killed with SIGKILL in the middle of a job, workers and schedulers that cannot connect, and a
 * scheduler interrupted while no worker is running.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisOptions } from '../../src/distributed/redis-url.js';
import { BIN, expectUsageError, ROOT, tempDir } from '../cli/helpers.js';
import { planInProcess } from '../cli/in-process.js';
import { type RedisServer, startRedis, stopChild } from './redis-server.js';

/**
 * `effect` records its side effect under its idempotency key (ctx.toolCallId, the job id): a
 * line in effects.log, written only when the log does not hold the key yet. It says on stderr
 * when it has, then works for `ms` (only the first time: a second attempt is a no-op).
 */
const TOOLS = `
import { appendFileSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
const log = process.env.EFFECTS_LOG;
export const tools = [{
  name: 'effect',
  inputSchema: { type: 'object', properties: { n: { type: 'number' }, ms: { type: 'number' } } },
  execute: async ({ n, ms }, { toolCallId }) => {
    let done = '';
    try { done = readFileSync(log, 'utf8'); } catch {}
    const first = !done.split('\\n').includes(toolCallId);
    if (first) appendFileSync(log, toolCallId + '\\n');
    process.stderr.write('effect ' + (first ? 'recorded' : 'already-recorded') + ' ' + toolCallId + ' ' + process.pid + '\\n');
    if (first) await sleep(ms);
    return n;
  },
}];
`;

const FS_SERVER = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

interface Child {
  readonly process: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | null>;
}

function startPlan(args: readonly string[], cwd: string, env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env } });
  const handle: Child = {
    process: child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
  child.stdout.on('data', (chunk: Buffer) => (handle.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (handle.stderr += chunk.toString()));
  return handle;
}

/** `plan <args>` in this process, from `dir`. */
const inDir = (dir: string, args: string[]) => planInProcess(args, '', { cwd: dir });

/** Resolves with the first match of `pattern` in what the stream writes from now on. */
function waitFor(child: Child, stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const onData = () => {
      const match = child[stream].match(pattern);
      if (match) {
        child.process[stream]!.off('data', onData);
        resolve(match);
      }
    };
    child.process[stream]!.on('data', onData);
    void child.exited.then(() => reject(new Error(`exited before ${pattern}: ${child.stderr}`)));
    onData();
  });
}

describe('plan worker and plan run --redis', () => {
  it('a worker killed with SIGKILL in the middle of a job: the run completes, each side effect once', async () => {
    const { dir, cleanup } = tempDir({ 'tools.mjs': TOOLS });
    const effects = join(dir, 'effects.log');
    // Two chains of 6 calls; `victim` (the 3rd of the first chain) works for 20 s unless interrupted.
    const plan = [];
    for (let chain = 0; chain < 2; chain++) {
      for (let k = 0; k < 6; k++) {
        const id = chain === 0 && k === 2 ? 'victim' : `c${chain}-${k}`;
        plan.push({
          _id: id,
          _tool: 'effect',
          n: chain * 10 + k,
          ms: id === 'victim' ? 20_000 : 100,
          ...(k > 0 && { after: `†state.c${chain}_${k - 1}` }),
          _outputPath: `†state.c${chain}_${k}`,
        });
      }
    }
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
    const queue = `kill-${process.pid}`;
    const env = { EFFECTS_LOG: effects };
    const workerArgs = ['worker', '--tools', 'tools.mjs', '--redis', redis.url, '--queue', queue];
    // A dead worker's job is taken over after its lock (1 s) expires and a stalled check (0.5 s) sees it.
    const fast = ['--concurrency', '2', '--lock-duration', '1000', '--stalled-interval', '500'];
    const workers = [
      startPlan([...workerArgs, ...fast], dir, env),
      startPlan([...workerArgs, ...fast], dir, env),
    ];
    const scheduler: Child[] = [];
    try {
      await Promise.all(workers.map((w) => waitFor(w, 'stderr', /Ctrl-C stops/)));
      const run = startPlan(
        ['run', 'plan.json', '--tools', 'tools.mjs', '--redis', redis.url, '--queue', queue, '--json'],
        dir,
      );
      scheduler.push(run);
      // Whichever worker records the victim's side effect dies right after, job unfinished.
      const victim = await Promise.race(
        workers.map((w) =>
          waitFor(w, 'stderr', /effect recorded (\S+\.victim) (\d+)/).then((m) => ({ w, m })),
        ),
      );
      const [, jobId, pid] = victim.m;
      expect(Number(pid)).toBe(victim.w.process.pid);
      victim.w.process.kill('SIGKILL');
      const survivor = workers.find((w) => w !== victim.w)!;

      const code = await run.exited;
      expect(run.stderr).toBe('');
      expect(code).toBe(0);
      const result = JSON.parse(run.stdout) as {
        status: string;
        calls: { id: string; status: string }[];
        state: Record<string, number>;
      };
      expect(result.status).toBe('succeeded');
      // Every call exactly once in the result, each succeeded.
      expect(result.calls.map((c) => c.id).sort()).toEqual(plan.map((c) => c._id).sort());
      expect(result.calls.every((c) => c.status === 'succeeded')).toBe(true);
      expect(result.state.c0_5).toBe(5);
      expect(result.state.c1_5).toBe(15);
      // The survivor ran the victim again, and found its side effect recorded: a no-op.
      expect(survivor.stderr).toContain(`effect already-recorded ${jobId} ${survivor.process.pid}`);
      // Each side effect exactly once, under its job id.
      const runId = jobId!.slice(0, jobId!.indexOf('.'));
      const lines = readFileSync(effects, 'utf8').trim().split('\n');
      expect(lines.sort()).toEqual(plan.map((c) => `${runId}.${c._id}`).sort());
    } finally {
      await Promise.all([...workers, ...scheduler].map((c) => stopChild(c.process, 'SIGKILL')));
      cleanup();
    }
  });

  it('--mcp on the worker: the tools of an MCP server run in the worker for plan run --redis --mcp', async () => {
    const { dir, cleanup } = tempDir({
      'plan.json': [
        {
          _id: 'write',
          _tool: 'write_file',
          path: '†input.file',
          content: 'from a worker',
          _outputPath: '†state.w',
        },
      ],
    });
    const files = join(dir, 'files');
    mkdirSync(files);
    const file = join(files, 'note.txt');
    writeFileSync(join(dir, 'input.json'), JSON.stringify({ file }));
    const server = `${JSON.stringify(process.execPath)} ${JSON.stringify(FS_SERVER)} ${JSON.stringify(files)}`;
    const queue = `mcp-${process.pid}`;
    const worker = startPlan(['worker', '--mcp', server, '--redis', redis.url, '--queue', queue], dir);
    try {
      await waitFor(worker, 'stderr', /Ctrl-C stops/);
      const r = await planInProcess(
        [
          'run',
          'plan.json',
          '--mcp',
          server,
          '--input',
          'input.json',
          '--redis',
          redis.url,
          '--queue',
          queue,
          '--json',
        ],
        '',
        { cwd: dir, env: { PATH: process.env.PATH } },
      );
      expect(r.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe('from a worker');
      // The call ran in the worker, not in the scheduler (its line may come just after the result).
      await waitFor(worker, 'stderr', /ok +\S+\.write write_file/);
    } finally {
      await stopChild(worker.process, 'SIGTERM');
      cleanup();
    }
  });

  it('a worker stops on SIGTERM after its running jobs, exit 0', async () => {
    const { dir, cleanup } = tempDir({ 'tools.mjs': TOOLS });
    const queue = `stop-${process.pid}`;
    const worker = startPlan(['worker', '--tools', 'tools.mjs', '--redis', redis.url, '--queue', queue], dir);
    try {
      await waitFor(worker, 'stderr', /Ctrl-C stops/);
      worker.process.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(worker.stderr).toMatch(/SIGTERM: finishing running jobs, then stopping\n$/);
    } finally {
      await stopChild(worker.process, 'SIGKILL');
      cleanup();
    }
  });

  it('with no worker running, Ctrl-C ends the run at once (exit 130) and takes its jobs off the queue', async () => {
    const { dir, cleanup } = tempDir({
      'tools.mjs': TOOLS,
      'plan.json': [
        { _id: 'a', _tool: 'effect', n: 1, ms: 1, _outputPath: '†state.a' },
        { _id: 'b', _tool: 'effect', n: 2, ms: 1, _outputPath: '†state.b' },
        { _id: 'c', _tool: 'effect', n: 3, ms: 1, a: '†state.a', _outputPath: '†state.c' },
      ],
    });
    const queue = `nobody-${process.pid}`;
    const run = startPlan(
      ['run', 'plan.json', '--tools', 'tools.mjs', '--redis', redis.url, '--queue', queue, '--events'],
      dir,
    );
    const jobs = new Queue(queue, { connection: redisOptions(redis.url) });
    try {
      await waitFor(run, 'stdout', /"call:start"[^]*"call:start"/);
      // No worker will ever take the jobs: a run that waited for them would hang to the test's timeout.
      run.process.kill('SIGINT');
      expect(await run.exited).toBe(130);
      expect(run.stderr).toMatch(/cancelled/);
      expect(await jobs.getJobCounts('wait', 'delayed', 'active', 'prioritized')).toEqual({
        wait: 0,
        delayed: 0,
        active: 0,
        prioritized: 0,
      });
    } finally {
      await jobs.close();
      await stopChild(run.process, 'SIGKILL');
      cleanup();
    }
  });

  it('a worker or scheduler that cannot connect: one line, exit 2', async () => {
    const { dir, cleanup } = tempDir({ 'tools.mjs': TOOLS, 'plan.json': [{ _tool: 'effect', n: 1, ms: 1 }] });
    try {
      const missing = `unix://${dir}/no-redis.sock`;
      expectUsageError(
        await inDir(dir, ['worker', '--tools', 'tools.mjs', '--redis', missing]),
        /^plan: error: cannot connect to Redis at unix:\/\/.*no-redis\.sock: connect ENOENT/,
      );
      expectUsageError(
        await inDir(dir, ['run', 'plan.json', '--tools', 'tools.mjs', '--redis', missing]),
        /^plan: error: cannot connect to Redis at .*: connect ENOENT/,
      );
      expectUsageError(
        await inDir(dir, ['worker', '--tools', 'tools.mjs', '--redis', 'redis://127.0.0.1:1']),
        /^plan: error: cannot connect to Redis at redis:\/\/127\.0\.0\.1:1: connect ECONNREFUSED/,
      );
    } finally {
      cleanup();
    }
  });

  it('bad flags: one line naming the flag, exit 2', async () => {
    const { dir, cleanup } = tempDir({ 'tools.mjs': TOOLS, 'plan.json': [{ _tool: 'effect', n: 1, ms: 1 }] });
    try {
      expectUsageError(
        await inDir(dir, ['run', 'plan.json', '--tools', 'tools.mjs', '--redis', 'localhost:6379']),
        /^plan: error: --redis: Expected a Redis URL starting redis:\/\/, rediss:\/\/ or unix:\/\/, got 'localhost:6379'/,
      );
      expectUsageError(
        await inDir(dir, ['worker', '--tools', 'tools.mjs', '--redis', 'redis://:secret@h/x']),
        /^plan: error: --redis: Expected the Redis database to be a whole number, got 'x' in 'redis:\/\/:\*\*\*@h\/x'/,
      );
      expectUsageError(
        await inDir(dir, ['worker', '--tools', 'tools.mjs', '--redis', redis.url, '--queue', 'a:b']),
        /^plan: error: --queue: Expected queue to be a name/,
      );
      expectUsageError(
        await inDir(dir, ['worker', '--tools', 'tools.mjs', '--lock-duration', '10']),
        /^plan: error: --lock-duration must be a whole number >= 100, not '10'/,
      );
      expectUsageError(
        await inDir(dir, ['worker', '--redis', redis.url]),
        /^plan: error: plan worker needs --tools/,
      );
    } finally {
      cleanup();
    }
  });
});
