/**
 * A worker's retry reports reach the journal as `call:retry` records (issue 29): anyone with the
 * Redis can send them, so the run takes one only in the form the journal reads back from its own
 * records (a delay of 0 or more, `{message, code?}` and nothing else, the message cut to 10,000
 * characters) and at most `retries.limit` of them per call. The others are refused with a line
 * naming the job, never journaled, and a resume reads the journal back. Against a real
 * redis-server, with a hostile BullMQ worker in place of planmode's.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Job, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, jobIdOf } from '../../src/distributed/index.js';
import { redisOptions } from '../../src/distributed/redis-url.js';
import { run, type Tool } from '../../src/index.js';
import { type RedisServer, startRedis } from '../distributed/redis-server.js';

let redis: RedisServer;
const root = mkdtempSync(join(tmpdir(), 'planmode-retry-reports-'));
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
  rmSync(root, { recursive: true, force: true });
});

const BIG = 'm'.repeat(100_000);

/** What the hostile worker sends before it answers, in order. */
const REPORTS: unknown[] = [
  { attempt: 1, delayMs: -1, error: { message: 'negative delay' } },
  { attempt: 1, delayMs: Number.NaN, error: { message: 'no delay' } },
  { attempt: 1, delayMs: 0, error: { message: 'extra error key', stack: 'at x' } },
  { attempt: 1, delayMs: 0, error: { message: 'extra report key' }, forged: true },
  { attempt: 0, delayMs: 0, error: { message: 'attempt 0' } },
  { attempt: 1, delayMs: 0, error: { message: 5 } },
  // Taken: attempts 1 and 2 of a tool that retries twice, each message cut to 10,000.
  { attempt: 1, delayMs: 10, error: { message: BIG, code: 'AGAIN' } },
  { attempt: 2, delayMs: 20, error: { message: BIG } },
  // Over the bound: the tool retries at most twice.
  ...Array.from({ length: 20 }, (_, k) => ({ attempt: 3 + k, delayMs: 0, error: { message: BIG } })),
];

const REFUSED = [
  /"delayMs" must be a number of milliseconds \(0 or more\), got -1$/,
  /"delayMs" must be a number of milliseconds \(0 or more\), got null$/,
  /"error" must be \{"message": string, "code"\?: string\}, with no other field; it has "stack"$/,
  /a retry report has an unknown field "forged"$/,
  /"attempt" must be a whole number \(1 or more\), got 0$/,
  /its "message" is 5$/,
  ...Array.from(
    { length: 20 },
    (_, k) =>
      new RegExp(`names attempt ${3 + k}, but the tool retries at most 2 times \\(retries\\.limit\\)$`),
  ),
];

describe("a worker's retry reports", () => {
  it('are journaled only in the form the journal reads back, at most retries.limit per call', async () => {
    const queue = `retry-reports-${process.pid}`;
    const errors: string[] = [];
    const dispatcher = await createDispatcher({
      redis: redis.url,
      queue,
      onError: (e) => errors.push(e.message),
    });
    const hostile = new Worker(
      queue,
      async (job: Job) => {
        for (const report of REPORTS) await job.updateProgress({ retry: report });
        return { value: 'paid' };
      },
      { connection: redisOptions(redis.url) },
    );
    const dir = join(root, 'journal');
    const plan = [{ _id: 'pay', _tool: 'pay', _outputPath: '†state.paid' }];
    const tools: Tool[] = [{ name: 'pay', retries: 2, execute: () => 'local' }];
    try {
      const result = await run(plan, { tools, remote: dispatcher.invoke, journal: dir, runId: 'r1' });
      expect(result.status).toBe('succeeded');
      expect(result.calls[0]!.attempts).toBe(3);

      const [name] = readdirSync(dir).filter((file) => file.endsWith('.jsonl'));
      const records = readFileSync(join(dir, name!), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const retries = records.filter((r) => r.type === 'call:retry');
      const cut = `${'m'.repeat(10_000)}… (90000 more characters)`;
      expect(retries.map(({ attempt, delayMs, error }) => ({ attempt, delayMs, error }))).toEqual([
        { attempt: 1, delayMs: 10, error: { message: cut, code: 'AGAIN' } },
        { attempt: 2, delayMs: 20, error: { message: cut } },
      ]);

      const job = jobIdOf('r1', 'pay');
      expect(errors).toHaveLength(REFUSED.length);
      errors.forEach((line, k) => {
        expect(
          line.startsWith(`a retry report for job ${job} was refused, not journaled: a retry report`),
        ).toBe(true);
        expect(line).toMatch(REFUSED[k]!);
        expect(line.length).toBeLessThan(500);
      });

      // Every line the run journaled, the resume reads back: nothing runs again.
      const again = await run(plan, {
        tools: [{ name: 'pay', retries: 2, execute: () => expect.unreachable('pay ran again') }],
        journal: dir,
        resume: true,
      });
      expect(again.status).toBe('succeeded');
      expect(again.state).toEqual({ paid: 'paid' });
    } finally {
      await hostile.close();
      await dispatcher.close();
    }
  }, 30_000);
});
