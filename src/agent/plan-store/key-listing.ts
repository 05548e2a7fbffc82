/**
 * What `list()` returns, the same for every store: the valid keys that start with the prefix,
 * each once, sorted, and no more than the store lists. A store walks what it holds (a folder's
 * entries, a Redis SCAN) and hands each name here; past the bound it stops walking.
 */
import { PlanStoreError } from '../../errors.js';
import { isStoreKey } from './plan-store.js';

export class KeyListing {
  readonly #keys = new Set<string>();
  readonly #prefix: string;
  readonly #max: number;
  readonly #description: string;

  constructor(prefix: string, maxListKeys: number, description: string) {
    this.#prefix = prefix;
    this.#max = maxListKeys;
    this.#description = description;
  }

  /**
   * Counts `name` when it is a key starting with the prefix; anything else the store holds is
   * not a key and is passed over.
   * @throws {PlanStoreError} (`too-many`) on the first key past the bound.
   */
  add(name: string): void {
    if (!name.startsWith(this.#prefix) || !isStoreKey(name) || this.#keys.has(name)) return;
    if (this.#keys.size >= this.#max) {
      throw new PlanStoreError(
        `${this.#description} holds more than ${this.#max} keys starting with ${JSON.stringify(this.#prefix)}, the most list() returns (maxListKeys); list a longer prefix, or raise maxListKeys`,
        { kind: 'too-many' },
      );
    }
    this.#keys.add(name);
  }

  /** The keys, sorted by UTF-16 code unit (the same as by byte: keys are ASCII). */
  keys(): string[] {
    return [...this.#keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
