/**
 * A plan store in this process's memory: for tests, for a plan mode that need not outlive the
 * process, and for an app that saves the snapshot itself. Nothing is shared between processes.
 */
import { PlanStoreError } from '../../errors.js';
import { optionKeys, rejectUnknownOptions } from '../../language/option-keys.js';
import { describeValue } from '../../language/describe-value.js';
import { KeyListing } from './key-listing.js';
import {
  checkStoreKey,
  checkStorePrefix,
  checkStoreValue,
  type PlanStore,
  type PlanStoreBounds,
  type PlanStoreReadOptions,
  readBound,
  resolveBounds,
} from './plan-store.js';

export interface MemoryPlanStoreOptions {
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

const KEYS = optionKeys<MemoryPlanStoreOptions>({ maxValueBytes: true, maxListKeys: true });
const WHERE = 'MemoryPlanStore';

export class MemoryPlanStore implements PlanStore {
  readonly description = 'memory';
  readonly #values = new Map<string, { text: string; bytes: number }>();
  readonly #bounds: Required<PlanStoreBounds>;
  #closed = false;

  /** @throws {TypeError} for an unknown option or a bound that is not a positive integer. */
  constructor(options: MemoryPlanStoreOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`${WHERE}: options must be an object, not ${describeValue(options)}`);
    }
    rejectUnknownOptions(WHERE, options, KEYS);
    this.#bounds = resolveBounds(options, WHERE);
  }

  async read(key: string, options?: PlanStoreReadOptions): Promise<string | null> {
    checkStoreKey(key, `${WHERE}.read`);
    const maxBytes = readBound(options, this.#bounds.maxValueBytes, `${WHERE}.read`);
    this.#checkOpen(key);
    const value = this.#values.get(key);
    if (value === undefined) return null;
    if (value.bytes > maxBytes) {
      throw new PlanStoreError(
        `${this.locate(key)} is larger than ${maxBytes} bytes, the most this read takes`,
        {
          kind: 'too-large',
          key,
        },
      );
    }
    return value.text;
  }

  async write(key: string, text: string): Promise<void> {
    checkStoreKey(key, `${WHERE}.write`);
    const bytes = checkStoreValue(text, this.#bounds.maxValueBytes, `${WHERE}.write`, key);
    this.#checkOpen(key);
    this.#values.set(key, { text, bytes });
  }

  async list(prefix = ''): Promise<string[]> {
    checkStorePrefix(prefix, `${WHERE}.list`);
    this.#checkOpen();
    const listing = new KeyListing(prefix, this.#bounds.maxListKeys, this.description);
    for (const key of this.#values.keys()) listing.add(key);
    return listing.keys();
  }

  async delete(key: string): Promise<boolean> {
    checkStoreKey(key, `${WHERE}.delete`);
    this.#checkOpen(key);
    return this.#values.delete(key);
  }

  locate(key: string): string {
    return `memory:${checkStoreKey(key, `${WHERE}.locate`)}`;
  }

  /** Forgets every value; later calls are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#values.clear();
  }

  #checkOpen(key?: string): void {
    if (this.#closed) {
      throw new PlanStoreError('this memory store was closed; make a new one', {
        kind: 'closed',
        ...(key !== undefined && { key }),
      });
    }
  }
}
