/**
 * RedisPlanStore against a real redis-server: the one plan-store contract (with hostile values
 * and names set behind its back by a second client), then what only Redis has: keys under the
 * prefix, a client of your own left open, a URL refused, and plan mode saved on one replica
 * and loaded on another.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PlanStore, RedisPlanStore, setupPlanMode } from '../../src/agent/index.js';
import { redisOptions } from '../../src/distributed/redis-url.js';
import { isPlanStoreError } from '../../src/index.js';
import { describePlanStoreContract, type StoreBounds } from '../agent/plan-store-contract.js';
import { type RedisServer, startRedis } from './redis-server.js';

let redis: RedisServer;
let raw: Redis;
let count = 0;
const open: PlanStore[] = [];

beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redisOptions(redis.url));
});
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});
afterAll(async () => {
  await raw?.quit();
  await redis?.stop();
});

function make(bounds: StoreBounds = {}): RedisPlanStore {
  const store = new RedisPlanStore({ url: redis.url, prefix: `test:${++count}:`, ...bounds });
  open.push(store);
  return store;
}

describePlanStoreContract('RedisPlanStore', {
  make: async (bounds) => make(bounds),
  plant: async (store, rawName, text) => {
    await raw.set(`${(store as RedisPlanStore).prefix}${rawName}`, text);
  },
  plantNonText: async (store, key) => {
    await raw.rpush(`${(store as RedisPlanStore).prefix}${key}`, 'a', 'b');
  },
});

describe('RedisPlanStore: Redis', () => {
  it('keeps each key as a Redis string under the prefix, and lists only its own prefix', async () => {
    const store = new RedisPlanStore({ url: redis.url });
    open.push(store);
    expect(store.prefix).toBe('planmode:plans:');
    await store.write('PLAN.md', 'the plan');
    expect(await raw.get('planmode:plans:PLAN.md')).toBe('the plan');
    expect(store.locate('PLAN.md')).toBe('the Redis key planmode:plans:PLAN.md');
    // Another prefix, and a name that only looks like a glob, are not its keys.
    await raw.set('planmode:plansX:other', 'x');
    await raw.set('planmode:other:PLAN.md', 'x');
    expect(await store.list()).toEqual(['PLAN.md']);
    expect(await store.delete('PLAN.md')).toBe(true);
    expect(await raw.exists('planmode:plans:PLAN.md')).toBe(0);
  });

  it('a client of your own is used as it is and left open by close()', async () => {
    const client = new Redis(redisOptions(redis.url));
    const store = new RedisPlanStore({ client, prefix: `mine:${++count}:` });
    await store.write('PLAN.md', 'x');
    await store.close();
    expect(await client.get(`mine:${count}:PLAN.md`)).toBe('x');
    await client.quit();
  });

  it('refuses a bad URL, prefix or client at once, connecting nowhere', () => {
    expect(() => new RedisPlanStore({ url: 'http://example.com' })).toThrow(
      /redis:\/\/, rediss:\/\/ or unix:\/\//,
    );
    for (const prefix of ['a b', 'a*', 'x'.repeat(101), '../']) {
      expect(() => new RedisPlanStore({ prefix })).toThrow(/prefix must be up to 100 ASCII letters/);
    }
    expect(() => new RedisPlanStore({ client: {} as never })).toThrow(/client must be a Redis client/);
    expect(() => new RedisPlanStore({ urll: 'redis://x' } as never)).toThrow(/unknown option "urll"/);
  });

  it('an unreachable server fails the operation; it does not hang', async () => {
    const store = new RedisPlanStore({ url: 'redis://127.0.0.1:1' });
    open.push(store);
    await expect(store.read('PLAN.md')).rejects.toThrow(/ECONNREFUSED|Connection|Reached the max retries/);
  });

  it('plan mode saved on one replica is loaded on another: latch, plan, plan file and todos', async () => {
    const prefix = `replicas:${++count}:`;
    const first = new RedisPlanStore({ url: redis.url, prefix });
    const second = new RedisPlanStore({ url: redis.url, prefix });
    open.push(first, second);
    const a = setupPlanMode({ approve: () => true, store: first });
    a.latch.enter();
    const wrote = await a.guarded.call({ id: '1', name: 'plan_write', arguments: { content: '# The plan' } });
    expect(wrote.status).toBe('succeeded');
    const listed = await a.guarded.call({
      id: '2',
      name: 'todo_write',
      arguments: { todos: [{ content: 'Read the code', status: 'in_progress' }] },
    });
    expect(listed.status).toBe('succeeded');
    await a.save();
    expect(JSON.parse((await raw.get(`${prefix}todos.json`))!)).toEqual([
      { content: 'Read the code', status: 'in_progress' },
    ]);

    const b = setupPlanMode({ approve: () => true, store: second });
    expect(b.latch.state).toBe('off');
    expect(await b.load()).toBe(true);
    expect(b.latch.state).toBe('planning');
    expect(b.todos.items).toEqual([{ content: 'Read the code', status: 'in_progress' }]);
    expect(await b.planFile.read()).toBe('# The plan');
    a.close();
    b.close();
    // The setups leave a store they were given open.
    expect(await first.read('PLAN.md')).toBe('# The plan');
  });

  it("a snapshot set behind the store's back is checked whole before anything is restored", async () => {
    const store = make();
    const setup = setupPlanMode({ approve: () => true, store });
    await raw.set(
      `${store.prefix}plan-mode.json`,
      JSON.stringify({ version: 1, latch: { state: 'planning' } }),
    );
    await expect(setup.load()).rejects.toThrow(TypeError);
    expect(setup.latch.state).toBe('off');
    await raw.set(`${store.prefix}plan-mode.json`, 'z'.repeat(5 * 1024 * 1024));
    const error = await setup.load().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isPlanStoreError(error) && error.kind).toBe('too-large');
    setup.close();
  });
});
