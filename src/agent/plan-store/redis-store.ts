/**
 * A plan store on Redis: each key a Redis string under a prefix (`planmode:plans:PLAN.md`), so
 * that plan mode on several replicas, or a process that restarts elsewhere, reads the same plan
 * file, todo list and snapshot.
 *
 * ioredis is an optional peer: it is imported on the first operation, not when this file is,
 * and a missing install is one MissingDependencyError naming the `npm install`. What comes
 * back from Redis is untrusted like a file from disk: a value is measured on the server before
 * it is sent (a larger one is refused unread), a key of another type is refused, and names
 * under the prefix that are not keys are not listed.
 */
import { PlanStoreError } from '../../errors.js';
import { describeValue } from '../../language/describe-value.js';
import { optionKeys, rejectUnknownOptions } from '../../language/option-keys.js';
import { importOptional } from '../../optional-dependencies.js';
import { DEFAULT_REDIS_URL, redact, redisOptions } from '../../distributed/redis-url.js';
import { KeyListing } from './key-listing.js';
import {
  checkStoreKey,
  checkStorePrefix,
  checkStoreValue,
  type PlanStore,
  type PlanStoreReadOptions,
  readBound,
  resolveBounds,
} from './plan-store.js';

/**
 * What the store needs of a Redis client: ioredis's `call` (a command and its arguments) and
 * `quit`. An ioredis `Redis` is one.
 */
export interface RedisPlanStoreClient {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
  quit(): Promise<unknown>;
}

export interface RedisPlanStoreOptions {
  /**
   * The Redis server: `redis://[user[:password]@]host[:port][/db]`, `rediss://...` (TLS) or
   * `unix:///path/to/redis.sock[?db=N]`. Ignored when `client` is given.
   * @default 'redis://127.0.0.1:6379'
   */
  readonly url?: string;
  /**
   * A client of your own (an ioredis `Redis`), used as it is and never closed by the store.
   * @default undefined: the store connects to `url` on its first operation, and `close()` quits
   */
  readonly client?: RedisPlanStoreClient;
  /**
   * What every Redis key of the store starts with: up to 100 ASCII letters, digits and
   * `:`, `.`, `_`, `-`, `{`, `}`. Give each plan mode sharing a server its own.
   * @default 'planmode:plans:'
   */
  readonly prefix?: string;
  /**
   * The largest value written or read, in UTF-8 bytes.
   * @default 4_194_304 (4 MiB)
   */
  readonly maxValueBytes?: number;
  /**
   * The most keys `list()` returns; past it, `list()` is refused rather than walking on.
   * @default 10_000
   */
  readonly maxListKeys?: number;
}

/** The prefix of every Redis key a store makes when given none. */
export const DEFAULT_REDIS_STORE_PREFIX = 'planmode:plans:';

const KEYS = optionKeys<RedisPlanStoreOptions>({
  url: true,
  client: true,
  prefix: true,
  maxValueBytes: true,
  maxListKeys: true,
});
const WHERE = 'RedisPlanStore';
const PREFIX = /^[A-Za-z0-9:._{}-]{0,100}$/;
/** Keys asked of the server per SCAN round trip. */
const SCAN_COUNT = 500;

/**
 * One round trip that measures before it sends: nothing (nil) for no key, the type's name (in
 * an array) for a key that is not a string, the size for a value over the bound, else the value.
 */
const READ_SCRIPT = `local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'none' then return false end
if kind ~= 'string' then return {kind} end
local size = redis.call('STRLEN', KEYS[1])
if size > tonumber(ARGV[1]) then return size end
return redis.call('GET', KEYS[1])`;

export class RedisPlanStore implements PlanStore {
  readonly description: string;
  /** What every Redis key of the store starts with. */
  readonly prefix: string;
  readonly #url: string;
  readonly #given: RedisPlanStoreClient | undefined;
  readonly #maxValueBytes: number;
  readonly #maxListKeys: number;
  #client: Promise<RedisPlanStoreClient> | undefined;
  #closed = false;

  /**
   * Connects nowhere yet: the connection (and ioredis) wait for the first operation.
   * @throws {TypeError} for a bad option or URL.
   */
  constructor(options: RedisPlanStoreOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`${WHERE}: options must be an object, not ${describeValue(options)}`);
    }
    rejectUnknownOptions(WHERE, options, KEYS);
    const { url = DEFAULT_REDIS_URL, client, prefix = DEFAULT_REDIS_STORE_PREFIX } = options;
    if (
      client !== undefined &&
      (client === null || typeof client.call !== 'function' || typeof client.quit !== 'function')
    ) {
      throw new TypeError(
        `${WHERE}: client must be a Redis client (an ioredis Redis), not ${describeValue(client)}`,
      );
    }
    if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
      throw new TypeError(
        `${WHERE}: prefix must be up to 100 ASCII letters, digits and ':', '.', '_', '-', '{', '}', not ${describeValue(prefix)}`,
      );
    }
    if (client === undefined) redisOptions(url);
    const bounds = resolveBounds(options, WHERE);
    this.#maxValueBytes = bounds.maxValueBytes;
    this.#maxListKeys = bounds.maxListKeys;
    this.#url = url;
    this.#given = client;
    this.prefix = prefix;
    this.description = `the Redis keys ${prefix}*${client === undefined ? ` at ${redact(url)}` : ''}`;
  }

  async read(key: string, options?: PlanStoreReadOptions): Promise<string | null> {
    checkStoreKey(key, `${WHERE}.read`);
    const maxBytes = readBound(options, this.#maxValueBytes, `${WHERE}.read`);
    const client = await this.#connect(key);
    const reply = await client.call('EVAL', READ_SCRIPT, 1, this.prefix + key, maxBytes);
    if (reply === null) return null;
    if (typeof reply === 'string') return reply;
    if (typeof reply === 'number') {
      throw new PlanStoreError(
        `${this.locate(key)} holds ${reply} bytes, more than ${maxBytes}, the most this read takes`,
        { kind: 'too-large', key },
      );
    }
    const kind = Array.isArray(reply) && typeof reply[0] === 'string' ? reply[0] : 'something else';
    throw new PlanStoreError(
      `${this.locate(key)} is a Redis ${kind.slice(0, 20)}, not a string; plan mode keeps only text there`,
      { kind: 'wrong-type', key },
    );
  }

  async write(key: string, text: string): Promise<void> {
    checkStoreKey(key, `${WHERE}.write`);
    checkStoreValue(text, this.#maxValueBytes, `${WHERE}.write`, key);
    const client = await this.#connect(key);
    await client.call('SET', this.prefix + key, text);
  }

  async list(prefix = ''): Promise<string[]> {
    checkStorePrefix(prefix, `${WHERE}.list`);
    const client = await this.#connect();
    const listing = new KeyListing(prefix, this.#maxListKeys, this.description);
    const pattern = `${escapeGlob(this.prefix + prefix)}*`;
    let cursor = '0';
    do {
      // TYPE string (Redis 6.0 and later): a key of another type is not a value of the store's.
      const reply = await client.call(
        'SCAN',
        cursor,
        'MATCH',
        pattern,
        'COUNT',
        SCAN_COUNT,
        'TYPE',
        'string',
      );
      if (!Array.isArray(reply) || typeof reply[0] !== 'string' || !Array.isArray(reply[1])) {
        throw new TypeError(`${WHERE}.list: the server answered SCAN with ${describeValue(reply)}`);
      }
      cursor = reply[0];
      for (const name of reply[1] as unknown[]) {
        if (typeof name === 'string' && name.startsWith(this.prefix))
          listing.add(name.slice(this.prefix.length));
      }
    } while (cursor !== '0');
    return listing.keys();
  }

  async delete(key: string): Promise<boolean> {
    checkStoreKey(key, `${WHERE}.delete`);
    const client = await this.#connect(key);
    return (await client.call('DEL', this.prefix + key)) === 1;
  }

  locate(key: string): string {
    return `the Redis key ${this.prefix}${checkStoreKey(key, `${WHERE}.locate`)}`;
  }

  /** Quits the connection the store made (a `client` given is left open); later calls are refused. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const made = this.#given === undefined ? this.#client : undefined;
    if (made === undefined) return;
    let client: RedisPlanStoreClient;
    try {
      client = await made;
    } catch {
      return; // It never connected: nothing to quit.
    }
    await client.quit().catch(() => undefined);
  }

  #connect(key?: string): Promise<RedisPlanStoreClient> {
    if (this.#closed) {
      return Promise.reject(
        new PlanStoreError(`${this.description}: the store was closed; make a new one`, {
          kind: 'closed',
          ...(key !== undefined && { key }),
        }),
      );
    }
    if (this.#given !== undefined) return Promise.resolve(this.#given);
    this.#client ??= importOptional('ioredis', WHERE, () => import('ioredis')).then(({ Redis }) => {
      // One retry per command: an unreachable server fails the operation, it does not hang it.
      const client = new Redis({ ...redisOptions(this.#url), maxRetriesPerRequest: 1 });
      // Failures reach each command's caller; without a listener ioredis would also print them.
      client.on('error', () => undefined);
      return client;
    });
    return this.#client;
  }
}

/** A literal for a Redis MATCH pattern: `*`, `?`, `[`, `]` and `\` escaped. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
