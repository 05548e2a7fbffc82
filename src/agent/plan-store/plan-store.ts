/**
 * Where plan mode keeps its files: the plan file, the todo list and the saved snapshot go
 * through a PlanStore, a small key-value interface (read, write, list, delete) with three
 * implementations: a local folder (the default), memory, and Redis.
 *
 * Keys are checked here, once, for every store, so that no store can be handed a key another
 * would refuse: a key is a flat name (no folders), 1 to 200 characters of ASCII letters,
 * digits, `.`, `_` and `-`, not starting with `.`. That rules out `..`, `/`, `\`, absolute
 * paths, NUL and every other control character by construction, keeps a key a valid file
 * name on every file system, and leaves names starting with `.` to the folder store's
 * temporary files. Values are text, bounded by each store's `maxValueBytes` (UTF-8 bytes).
 */
import { describeValue } from '../../language/describe-value.js';

/** The longest key, in characters (and bytes: keys are ASCII). */
export const MAX_STORE_KEY_LENGTH = 200;
/** The largest value a store keeps unless told otherwise, in UTF-8 bytes: 4 MiB. */
export const DEFAULT_MAX_VALUE_BYTES = 4_194_304;
/** The most keys `list()` returns unless told otherwise; a store with more is refused, not walked. */
export const DEFAULT_MAX_LIST_KEYS = 10_000;

/** A key: the first character not `.`; only ASCII letters, digits, `.`, `_`, `-`. Linear, no backtracking. */
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
/** A prefix for `list()`: the empty string or the start of a key. */
const PREFIX = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*)?$/;

export interface PlanStoreReadOptions {
  /**
   * The largest value read, in UTF-8 bytes; a larger one is refused (a PlanStoreError of kind
   * `too-large`) without being read whole.
   * @default the store's maxValueBytes
   */
  readonly maxBytes?: number;
}

/**
 * A place to keep plan mode's text by key. Every method checks its key with
 * {@link checkStoreKey} and its value with {@link checkStoreValue} before anything else, so a
 * bad one is a TypeError whatever the store.
 */
export interface PlanStore {
  /** What the store is, for messages: `the folder /srv/app/plans`, `memory`, `Redis keys planmode:plans:*`. */
  readonly description: string;
  /**
   * The text kept under `key`, or null when there is none.
   * @throws {TypeError} for a bad key or option.
   * @throws {PlanStoreError} when the value is larger than `maxBytes` (`too-large`), or the
   *   store refuses it for a reason of its own (a link, a folder moved away, a closed store).
   */
  read(key: string, options?: PlanStoreReadOptions): Promise<string | null>;
  /**
   * Replaces the text under `key` (or creates it), whole: a reader sees the old text or the
   * new, never a part.
   * @throws {TypeError} for a bad key, or a value that is not a string or is larger than the
   *   store's maxValueBytes.
   * @throws {PlanStoreError} when the store refuses it for a reason of its own.
   */
  write(key: string, text: string): Promise<void>;
  /**
   * The keys that start with `prefix`, sorted (by UTF-16 code unit, the same as by byte for
   * keys), each once. Only valid keys are listed: anything else the store holds is not a key.
   * @throws {TypeError} for a prefix that no key could start with.
   * @throws {PlanStoreError} (`too-many`) when more keys match than the store lists.
   */
  list(prefix?: string): Promise<string[]>;
  /**
   * Removes the text under `key`.
   * @returns whether there was any.
   */
  delete(key: string): Promise<boolean>;
  /**
   * Where the text under `key` lives, for messages (a file path, a Redis key); checks the key.
   * @throws {TypeError} for a bad key.
   */
  locate(key: string): string;
  /** Releases what the store holds open (a folder, a connection); later calls are refused. Idempotent. */
  close(): Promise<void>;
}

/**
 * @returns `key`, when it is a valid store key.
 * @throws {TypeError} naming the key (cut short) and the rule it breaks.
 */
export function checkStoreKey(key: unknown, where: string): string {
  if (typeof key !== 'string') {
    throw new TypeError(`${where}: a key must be a string, not ${describeValue(key)}`);
  }
  if (key.length === 0 || key.length > MAX_STORE_KEY_LENGTH) {
    throw new TypeError(
      `${where}: a key has 1 to ${MAX_STORE_KEY_LENGTH} characters, not ${key.length} (${describeValue(key)})`,
    );
  }
  if (!KEY.test(key)) {
    throw new TypeError(
      `${where}: the key ${describeValue(key)} is not a plain name: a key has only ASCII letters, digits, '.', '_' and '-', does not start with '.', and names no folder (no '/', '\\' or '..')`,
    );
  }
  return key;
}

/**
 * @returns `prefix`, when some key could start with it ('' lists every key).
 * @throws {TypeError} naming the prefix and the rule it breaks.
 */
export function checkStorePrefix(prefix: unknown, where: string): string {
  if (typeof prefix !== 'string') {
    throw new TypeError(`${where}: a prefix must be a string, not ${describeValue(prefix)}`);
  }
  if (prefix.length > MAX_STORE_KEY_LENGTH || !PREFIX.test(prefix)) {
    throw new TypeError(
      `${where}: no key starts with ${describeValue(prefix)}: a prefix is the start of a key (at most ${MAX_STORE_KEY_LENGTH} ASCII letters, digits, '.', '_' and '-', not starting with '.')`,
    );
  }
  return prefix;
}

/** Whether `name` is a valid key: for stores listing what they hold, which may be anything. */
export function isStoreKey(name: string): boolean {
  return name.length > 0 && name.length <= MAX_STORE_KEY_LENGTH && KEY.test(name);
}

/**
 * @returns the value's size in UTF-8 bytes, when it is a string within `maxBytes`.
 * @throws {TypeError} saying what the value is, or how large it is and the bound.
 */
export function checkStoreValue(text: unknown, maxBytes: number, where: string, key: string): number {
  if (typeof text !== 'string') {
    throw new TypeError(`${where}: the value for ${key} must be a string, not ${describeValue(text)}`);
  }
  // Past maxBytes characters it is too large whatever its encoding: refused without measuring.
  const bytes = text.length > maxBytes ? Infinity : Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    throw new TypeError(
      `${where}: the value for ${key} is larger than ${maxBytes} bytes, the most this store keeps (maxValueBytes); shorten it or raise maxValueBytes`,
    );
  }
  return bytes;
}

/**
 * The byte bound of one read: `options.maxBytes` within the store's own.
 * @throws {TypeError} for bad options.
 */
export function readBound(
  options: PlanStoreReadOptions | undefined,
  storeMax: number,
  where: string,
): number {
  if (options === undefined) return storeMax;
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${where}: read options must be an object, not ${describeValue(options)}`);
  }
  for (const key in options) {
    if (Object.hasOwn(options, key) && key !== 'maxBytes') {
      throw new TypeError(`${where}: unknown option ${describeValue(key)}; the options are maxBytes`);
    }
  }
  const { maxBytes = storeMax } = options;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new TypeError(`${where}: maxBytes must be a positive integer, not ${describeValue(maxBytes)}`);
  }
  return Math.min(maxBytes, storeMax);
}

/**
 * The options every store takes: the size bounds.
 */
export interface PlanStoreBounds {
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

/** The bounds with their defaults. @throws {TypeError} for a bound that is not a positive integer. */
export function resolveBounds(bounds: PlanStoreBounds, where: string): Required<PlanStoreBounds> {
  const { maxValueBytes = DEFAULT_MAX_VALUE_BYTES, maxListKeys = DEFAULT_MAX_LIST_KEYS } = bounds;
  for (const [name, value] of [
    ['maxValueBytes', maxValueBytes],
    ['maxListKeys', maxListKeys],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(`${where}: ${name} must be a positive integer, not ${describeValue(value)}`);
    }
  }
  return { maxValueBytes, maxListKeys };
}
