/**
 * A job anyone with access to the Redis can add, with fields no dispatcher writes: the worker
 * fails it at once, unrecoverable, with a message naming the field, instead of letting BullMQ's
 * backoff throw on it (the job then sat until it stalled, about 90 s, reported as a Redis error).
 * Against a real redis-server; the test's timeout is the guard, no wall time is asserted.
 */
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../src/distributed/index.js';
import { redisOptions } from '../../src/distributed/redis-url.js';
import { type RedisServer, startRedis } from '../distributed/redis-server.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const GOOD = {
  runId: 'r',
  call: 'c',
  tool: 'fails',
  args: {},
  outputPaths: [],
  timeoutMs: 0,
  retries: { limit: 2, delayMs: 0, maxDelayMs: 0, factor: 2 },
};

const FORGED: [string, Record<string, unknown>, RegExp][] = [
  ['retries: null', { ...GOOD, retries: null }, /"retries" is not a retry policy object/],
  ['retries.factor: "x"', { ...GOOD, retries: { ...GOOD.retries, factor: 'x' } }, /"retries\.factor"/],
  ['timeoutMs: -1', { ...GOOD, timeoutMs: -1 }, /"timeoutMs"/],
  ['outputPaths: [1]', { ...GOOD, outputPaths: [1] }, /"outputPaths"/],
  ['call: null', { ...GOOD, call: null }, /"call" is not a string/],
];

describe('a forged worker job', () => {
  it.each(FORGED)(
    '%s fails at once with a clear message, attempted once',
    async (_name, data, message) => {
      const queue = `forged-${process.pid}-${Math.random().toString(36).slice(2)}`;
      const connection = redisOptions(redis.url);
      const errors: unknown[] = [];
      const ran: string[] = [];
      const worker = await startWorker({
        tools: [
          {
            name: 'fails',
            execute: () => {
              ran.push('fails');
              throw new Error('no');
            },
          },
        ],
        redis: redis.url,
        queue,
        onError: (e) => errors.push(e),
      });
      const jobs = new Queue(queue, { connection });
      const events = new QueueEvents(queue, { connection });
      try {
        await events.waitUntilReady();
        const job = await jobs.add('fails', data, { attempts: 3, backoff: { type: 'planmode' } });
        const reason = await job.waitUntilFinished(events).then(
          () => 'completed',
          (e: Error) => e.message,
        );
        expect(JSON.parse(reason)).toMatchObject({ code: 'INVALID_ARGUMENTS', contract: true });
        expect(JSON.parse(reason).message).toMatch(message);
        expect(JSON.parse(reason).message).toMatch(/^malformed job /);
        expect((await jobs.getJob(job.id!))?.attemptsMade).toBe(1);
        expect(ran).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await events.close();
        await jobs.close();
        await worker.close();
      }
    },
    20_000,
  );

  it('a well-formed job still runs (and retries as its policy says)', async () => {
    const queue = `forged-${process.pid}-good`;
    const connection = redisOptions(redis.url);
    let calls = 0;
    const worker = await startWorker({
      tools: [
        {
          name: 'fails',
          execute: () => {
            calls++;
            throw new Error('no');
          },
        },
      ],
      redis: redis.url,
      queue,
    });
    const jobs = new Queue(queue, { connection });
    const events = new QueueEvents(queue, { connection });
    try {
      await events.waitUntilReady();
      const job = await jobs.add('fails', GOOD, { attempts: 3, backoff: { type: 'planmode' } });
      const reason = await job.waitUntilFinished(events).then(
        () => 'completed',
        (e: Error) => e.message,
      );
      expect(JSON.parse(reason)).toEqual({ message: 'no' });
      expect(calls).toBe(3);
    } finally {
      await events.close();
      await jobs.close();
      await worker.close();
    }
  }, 20_000);
});
