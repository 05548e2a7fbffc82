/**
 * The journal attack that costs memory and disk: a worker on the run's queue (not planmode's,
 * hostile-forged-worker.ts) reports N retries of a call, each with an error of 1 MB, before it
 * answers; `plan run --redis --journal --events` takes them in. A real redis-server on a unix
 * socket in the attack's folder, as the distributed tests start one; without one on the PATH the
 * row says so.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type Attack, count, scaled } from './hostile-attack.js';

const FORGED_WORKER = fileURLToPath(new URL('./hostile-forged-worker.js', import.meta.url));
const ERROR_BYTES = 1_000_000;
const QUEUE = 'hostile';

/** Resolves once the process writes a line matching `pattern` on stdout; rejects if it ends first. */
function lineFrom(child: ChildProcess, pattern: RegExp, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (pattern.test(line)) resolve();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready`)));
  });
}

/** The bytes of every file under `folder`. */
function bytesUnder(folder: string): number {
  let bytes = 0;
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const stat = statSync(join(folder, name));
    if (stat.isFile()) bytes += stat.size;
  }
  return bytes;
}

export const workerRetryReports: Attack = {
  name: 'worker-retry-reports',
  title: 'a worker reporting N retries with 1 MB errors, `plan run --redis --journal --events`',
  size: (scale) => `${count(scaled(50, scale))} reports`,
  prepare: async (build, scale, folder) => {
    const socket = join(folder, 'redis.sock');
    const redis = spawn(
      'redis-server',
      ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no', '--dir', folder],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      await lineFrom(redis, /ready to accept connections/i, 'redis-server');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return async () => 'skipped: no redis-server on the PATH';
    }
    const worker = spawn(
      process.execPath,
      [FORGED_WORKER, socket, QUEUE, String(scaled(50, scale)), String(ERROR_BYTES)],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    await lineFrom(worker, /^ready$/, 'the forged worker');
    const planFile = join(folder, 'plan.json');
    const toolsFile = join(folder, 'tools.mjs');
    const journal = join(folder, 'journal');
    writeFileSync(planFile, JSON.stringify([{ _tool: 'flaky' }]));
    writeFileSync(
      toolsFile,
      "export default [{ name: 'flaky', retries: { limit: 100, delayMs: 0 }, execute: () => 1 }];\n",
    );
    const main = await build.cliMain();
    let written = 0;
    const sink = { write: (text: string) => ((written += text.length), true), isTTY: false };
    const stdin = { isTTY: false, async *[Symbol.asyncIterator]() {} };
    return async () => {
      try {
        const argv = ['run', planFile, '--tools', toolsFile, '--redis', `unix://${socket}`, '--queue', QUEUE];
        const code = await main([...argv, '--journal', journal, '--events'], {
          stdout: sink,
          stderr: sink,
          stdin,
          env: {},
        });
        return `exit ${code}, output ${(written / 1e6).toFixed(0)} MB, journal ${(bytesUnder(journal) / 1e6).toFixed(0)} MB`;
      } finally {
        worker.stdin!.end();
        redis.kill('SIGKILL');
      }
    };
  },
};
