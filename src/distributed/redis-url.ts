/**
 * Redis URLs to ioredis connection options: `redis://[user[:password]@]host[:port][/db]`,
 * `rediss://...` (TLS) and `unix:///path/to/redis.sock[?db=N]` for a unix socket.
 */
/** What a URL says: ioredis connection options (BullMQ passes them on to ioredis). */
export interface RedisConnection {
  readonly host?: string;
  readonly port?: number;
  /** A unix socket. */
  readonly path?: string;
  readonly username?: string;
  readonly password?: string;
  readonly db?: number;
  readonly tls?: Record<string, never>;
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

const PROTOCOLS = new Set(['redis:', 'rediss:', 'unix:']);

/**
 * @throws {TypeError} naming the URL when it is not one of the forms above.
 */
export function redisOptions(url: string): RedisConnection {
  if (typeof url !== 'string' || url.trim() === '') {
    throw new TypeError(
      `Expected a Redis URL (redis://host:port, rediss://..., unix:///path), got ${JSON.stringify(url)}`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`Expected a Redis URL (redis://host:port, rediss://..., unix:///path), got '${url}'`);
  }
  if (!PROTOCOLS.has(parsed.protocol)) {
    throw new TypeError(`Expected a Redis URL starting redis://, rediss:// or unix://, got '${redact(url)}'`);
  }
  const auth = {
    ...(parsed.username && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password && { password: decodeURIComponent(parsed.password) }),
  };
  if (parsed.protocol === 'unix:') {
    const path = decodeURIComponent(parsed.pathname);
    if (parsed.host !== '' || !path.startsWith('/') || path === '/') {
      throw new TypeError(`Expected a unix socket URL like unix:///run/redis.sock, got '${redact(url)}'`);
    }
    return { path, ...auth, ...database(parsed.searchParams.get('db'), url) };
  }
  if (parsed.hostname === '') throw new TypeError(`Expected a host in the Redis URL, got '${redact(url)}'`);
  const port = parsed.port === '' ? 6379 : Number(parsed.port);
  const db = parsed.pathname.replace(/^\//, '');
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    ...auth,
    ...database(db === '' ? null : db, url),
    ...(parsed.protocol === 'rediss:' && { tls: {} }),
  };
}

/** The URL with its password hidden, for messages. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

function database(db: string | null, url: string): { db?: number } {
  if (db === null) return {};
  if (!/^\d{1,5}$/.test(db)) {
    throw new TypeError(`Expected the Redis database to be a whole number, got '${db}' in '${redact(url)}'`);
  }
  return { db: Number(db) };
}
