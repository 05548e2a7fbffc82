/**
 * A worker that is not planmode's, in a process of its own: it takes every job of a queue and,
 * before answering it, reports N retries as job progress, each with an error message of `bytes`
 * characters, the way planmode's worker reports one retry. It prints `ready` once it listens,
 * and exits when its standard input closes.
 *
 *     node dist/bench/hostile-forged-worker.js <redis unix socket> <queue> <reports> <bytes>
 */
import { Worker } from 'bullmq';

const [socket, queue, reportsText, bytesText] = process.argv.slice(2);
const reports = Number(reportsText);
const message = 'x'.repeat(Number(bytesText));

const worker = new Worker(
  queue!,
  async (job) => {
    for (let attempt = 1; attempt <= reports; attempt++) {
      await job.updateProgress({ retry: { attempt, delayMs: 0, error: { message } } });
    }
    return { value: 1 };
  },
  { connection: { path: socket!, maxRetriesPerRequest: null } },
);
await worker.waitUntilReady();
console.log('ready');
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
