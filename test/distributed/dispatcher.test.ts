/**
 * Distributed runs in one process against a real redis-server: the executor schedules, a
 * BullMQ worker (startWorker) runs the tools, and the run's result and events are those of a
 * local run of the same plan.
 */
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDispatcher,
  type Dispatcher,
  jobIdOf,
  type PlanWorker,
  startWorker,
} from '../../src/distributed/index.js';
import { redisOptions } from '../../src/distributed/redis-url.js';
import {
  branch,
  isRedisConnectionError,
  run,
  type RunEvent,
  type RunResult,
  type Tool,
} from '../../src/index.js';
import { type RedisServer, startRedis } from './redis-server.js';

let redis: RedisServer;
let queueCount = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

/** Fresh tools (their own attempt counters) for each run and each worker. */
function makeTools(log: string[] = [], onLog?: () => void, onSlowStart?: () => void): Tool[] {
  const attempts = new Map<string, number>();
  return [
    { name: 'add', inputSchema: { type: 'object' }, execute: ({ a, b }) => (a as number) + (b as number) },
    {
      name: 'flaky',
      retries: { limit: 2, delayMs: 20, factor: 3 },
      execute: async (_args, { toolCallId }) => {
        const n = (attempts.get(toolCallId) ?? 0) + 1;
        attempts.set(toolCallId, n);
        if (n < 3) throw Object.assign(new Error(`attempt ${n} failed`), { code: 'AGAIN' });
        return { after: n };
      },
    },
    {
      name: 'charge',
      execute: ({ amount }) => {
        if ((amount as number) > 100)
          throw Object.assign(new Error('Your card was declined.'), { code: 'card_declined' });
        return branch(0, { receipt: 'r-1' });
      },
    },
    { name: 'nothing', execute: () => undefined },
    {
      name: 'slow',
      timeoutMs: 150,
      retries: 1,
      execute: (_args, { abortSignal }) =>
        new Promise((resolve) => {
          onSlowStart?.();
          const timer = setTimeout(() => resolve('too late'), 5_000);
          abortSignal.addEventListener('abort', () => {
            clearTimeout(timer);
            log.push(`aborted: ${(abortSignal.reason as Error).name}`);
            onLog?.();
          });
        }),
    },
    {
      name: 'typed',
      outputSchema: { type: 'object', required: ['id'] },
      execute: () => ({ name: 'no id' }),
    },
    {
      name: 'plain',
      execute: () => {
        throw new Error('no code here');
      },
    },
  ];
}

const PLAN = [
  { _id: 'x', _tool: 'add', a: 1, b: 2, _outputPath: '†state.x' },
  { _id: 'y', _tool: 'add', a: '†state.x', b: 10, _outputPath: '†state.y' },
  { _id: 'retry:me', _tool: 'flaky', _outputPath: '†state.flaky' },
  // Declared error alternatives: the tool's own throw (pay) is handled; the worker's timeout
  // (slow) and its output check (typed) are contract errors, never handled.
  {
    _id: 'pay',
    _tool: 'charge',
    amount: 500,
    _outputPath: '†state.paid || †state.error',
    _onError: '†state.error',
  },
  { _id: 'pay2', _tool: 'charge', amount: 5, _outputPath: '†state.paid2 || †state.error2' },
  { _id: 'void', _tool: 'nothing' },
  {
    _id: 'slow',
    _tool: 'slow',
    _outputPath: '†state.slow || †state.slowError',
    _onError: '†state.slowError',
  },
  { _id: 'after-slow', _tool: 'add', a: '†state.slow', b: 1, _outputPath: '†state.never' },
  {
    _id: 'typed',
    _tool: 'typed',
    _outputPath: '†state.typed || †state.typedError',
    _onError: '†state.typedError',
  },
  { _id: 'plain', _tool: 'plain' },
];

/** A queue of its own per test: no test sees another's jobs. */
async function setUp(workerTools: Tool[] | null = makeTools()): Promise<{
  dispatcher: Dispatcher;
  worker: PlanWorker | null;
  queue: string;
  close: () => Promise<void>;
}> {
  const queue = `test-${process.pid}-${++queueCount}`;
  const worker = workerTools && (await startWorker({ tools: workerTools, redis: redis.url, queue }));
  const dispatcher = await createDispatcher({ redis: redis.url, queue });
  return {
    dispatcher,
    worker,
    queue,
    close: async () => {
      await dispatcher.close();
      await worker?.close();
    },
  };
}

/** What must not differ between a local and a distributed run: everything but times. */
function comparable(result: RunResult) {
  return {
    status: result.status,
    state: result.state,
    calls: result.calls.map(({ startedAt, endedAt, ...rest }) => {
      expect(typeof startedAt === typeof endedAt).toBe(true);
      return rest;
    }),
  };
}

/** Per call, its events in order, without times. */
function eventsByCall(events: readonly RunEvent[]): Record<string, unknown[]> {
  const byCall: Record<string, unknown[]> = {};
  for (const event of events) {
    if (!('call' in event) || event.call === undefined) continue;
    const { at, ...rest } = event as RunEvent & { durationMs?: unknown };
    void at;
    if ('durationMs' in rest) delete rest.durationMs;
    (byCall[event.call] ??= []).push(rest);
  }
  return byCall;
}

describe('a distributed run', () => {
  it('gives the state, call reports and events of a local run of the same plan', async () => {
    const env = await setUp();
    try {
      const localEvents: RunEvent[] = [];
      const local = await run(PLAN, { tools: makeTools(), onEvent: (e) => localEvents.push(e) });
      const remoteEvents: RunEvent[] = [];
      const remote = await run(PLAN, {
        tools: makeTools(),
        remote: env.dispatcher.invoke,
        onEvent: (e) => remoteEvents.push(e),
      });
      expect(comparable(remote)).toEqual(comparable(local));
      expect(eventsByCall(remoteEvents)).toEqual(eventsByCall(localEvents));
      // The cases the plan holds, spelled out.
      const call = (id: string) => remote.calls.find((c) => c.id === id)!;
      expect(remote.state).toMatchObject({ x: 3, y: 13, flaky: { after: 3 }, paid2: { receipt: 'r-1' } });
      expect(remote.state.error).toEqual({ message: 'Your card was declined.', code: 'card_declined' });
      expect(call('retry:me')).toMatchObject({ status: 'succeeded', attempts: 3 });
      expect(
        remoteEvents
          .filter((e) => e.type === 'call:retry' && e.call === 'retry:me')
          .map((e) => (e as { delayMs: number }).delayMs),
      ).toEqual([20, 60]);
      expect(call('pay')).toMatchObject({ status: 'failed', handled: true, branch: 1 });
      expect(call('void')).toMatchObject({ status: 'succeeded' });
      expect(call('void').output).toBeUndefined();
      expect(call('slow')).toMatchObject({
        status: 'failed',
        handled: false,
        attempts: 2,
        error: { message: 'timed out after 150 ms', code: 'TIMEOUT' },
      });
      expect(call('after-slow').status).toBe('upstream_failed');
      expect(call('typed')).toMatchObject({
        status: 'failed',
        handled: false,
        error: { code: 'INVALID_OUTPUT' },
      });
      expect(remote.status).toBe('failed');
      expect(remote.state).not.toHaveProperty('slowError');
      expect(remote.state).not.toHaveProperty('typedError');
      expect(call('plain').error).toEqual({ message: 'no code here' });
    } finally {
      await env.close();
    }
  });

  it('names each job <runId>.<callId>, encoding what BullMQ forbids in ids', async () => {
    const env = await setUp();
    const queue = new Queue(env.queue, { connection: redisOptions(redis.url) });
    try {
      const result = await run(
        [
          { _id: 'a:b', _tool: 'add', a: 1, b: 1, _outputPath: '†state.s' },
          { _id: '7', _tool: 'add', a: 2, b: 2 },
        ],
        {
          tools: makeTools(),
          remote: env.dispatcher.invoke,
          runId: 'run-1',
        },
      );
      expect(result.status).toBe('succeeded');
      expect(jobIdOf('run-1', 'a:b')).toBe('run-1.a%3Ab');
      const job = await queue.getJob('run-1.a%3Ab');
      expect(job?.returnvalue).toEqual({ value: 2 });
      expect((await queue.getJob('run-1.7'))?.data).toMatchObject({
        runId: 'run-1',
        call: '7',
        tool: 'add',
        args: { a: 2, b: 2 },
      });
    } finally {
      await queue.close();
      await env.close();
    }
  });

  it('fails a call the worker has no tool for at once, without retries', async () => {
    const env = await setUp(makeTools().filter((t) => t.name !== 'flaky'));
    try {
      const result = await run([{ _id: 'f', _tool: 'flaky' }], {
        tools: makeTools(),
        remote: env.dispatcher.invoke,
      });
      expect(result.calls[0]).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: { message: 'this worker has no tool "flaky"', code: 'UNKNOWN_TOOL' },
      });
    } finally {
      await env.close();
    }
  });

  it('with no worker, an aborted run ends cancelled at once and leaves no job waiting', async () => {
    const env = await setUp(null);
    const queue = new Queue(env.queue, { connection: redisOptions(redis.url) });
    try {
      const controller = new AbortController();
      const started: string[] = [];
      const pending = run(PLAN.slice(0, 3), {
        tools: makeTools(),
        remote: env.dispatcher.invoke,
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'call:start') {
            started.push(e.call);
            // Both ready calls handed over: nobody will take them.
            if (started.length === 2) setImmediate(() => controller.abort());
          }
        },
      });
      // Nobody will ever take the jobs: a run that waited for them would hang to the test's timeout.
      const result = await pending;
      expect(result.status).toBe('cancelled');
      expect(result.calls.map((c) => c.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      await env.dispatcher.close();
      expect(await queue.getJobCounts('wait', 'delayed', 'active', 'prioritized')).toEqual({
        wait: 0,
        delayed: 0,
        active: 0,
        prioritized: 0,
      });
    } finally {
      await queue.close();
      await env.close();
    }
  });

  it('an aborted run aborts the tool running in the worker', async () => {
    const log: string[] = [];
    // No time limit: only the abort can stop it (the scheduler's tools say what the limit is).
    const patient = (tools: Tool[]) => tools.map((t) => (t.name === 'slow' ? { ...t, timeoutMs: 0 } : t));
    let heard!: () => void;
    const aborted = new Promise<void>((resolve) => (heard = resolve));
    const controller = new AbortController();
    // Aborted once the worker runs the tool (not after a guess at how long that takes): the
    // worker must be told.
    const env = await setUp(patient(makeTools(log, heard, () => setImmediate(() => controller.abort()))));
    try {
      const result = run([{ _id: 'slow', _tool: 'slow' }], {
        tools: patient(makeTools()),
        remote: env.dispatcher.invoke,
        signal: controller.signal,
      });
      expect((await result).calls[0]!.status).toBe('cancelled');
      await aborted;
      expect(log).toEqual(['aborted: RunCancelledError']);
    } finally {
      await env.close();
    }
  });
});

describe('options', () => {
  it('reads redis, rediss and unix URLs, and names a bad one', () => {
    expect(redisOptions('redis://u:p%40ss@h.example:6380/2')).toEqual({
      host: 'h.example',
      port: 6380,
      username: 'u',
      password: 'p@ss',
      db: 2,
    });
    expect(redisOptions('rediss://[::1]')).toEqual({ host: '::1', port: 6379, tls: {} });
    expect(redisOptions('unix:///run/redis.sock?db=3')).toEqual({ path: '/run/redis.sock', db: 3 });
    expect(() => redisOptions('http://h')).toThrow(/got 'http:\/\/h\/'/);
    expect(() => redisOptions('redis://h/x')).toThrow(/database .* 'x'/);
    expect(() => redisOptions('unix://relative')).toThrow(TypeError);
    expect(() => redisOptions('redis://u:secret@h:1/x')).toThrow(/\*\*\*/);
    expect(() => redisOptions('redis://u:secret@h:1/x')).not.toThrow(/secret/);
  });

  it('throws TypeErrors naming bad values, and a RedisConnectionError for no Redis', async () => {
    await expect(createDispatcher({ redis: redis.url, queue: 'a:b' })).rejects.toThrow(/queue .*"a:b"/);
    await expect(createDispatcher({ redis: redis.url, maxEvents: 1.5 })).rejects.toThrow(/maxEvents .* 1\.5/);
    await expect(startWorker({ tools: [], redis: redis.url, concurrency: 0 })).rejects.toThrow(
      /concurrency to be a whole number >= 1, got 0/,
    );
    await expect(
      run([{ _tool: 'add', a: 1, b: 1 }], { tools: makeTools(), runId: 'has.dot' }),
    ).rejects.toThrow(/runId .*"has.dot"/);
    const error = await createDispatcher({ redis: `unix://${redis.dir}/missing.sock` }).catch(
      (e: unknown) => e,
    );
    expect(isRedisConnectionError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /cannot connect to Redis at unix:\/\/.*missing\.sock: connect ENOENT/,
    );
  });
});
