/**
 * The one file plan mode lets the model write: the key `<name>` of a plan store, nothing else.
 * The name is a plain file name (no separators, no `..`, not absolute) and a store key,
 * checked when the tools are made.
 *
 * The store is the local plans folder by default (see agent/plan-store's LocalFolderStore:
 * opened once, reached through the open folder, written by a synced temporary file renamed
 * over the plan file, links refused, never followed), or any PlanStore given. What the store
 * refuses (a link, a folder moved away, a closed store) is a PermissionDeniedError naming the
 * plan tool, so the model reads why; a plan file larger than a read allows is a TypeError.
 */
import { isAbsolute } from 'node:path';
import { isPlanStoreError, PermissionDeniedError } from '../../errors.js';
import { describeValue } from '../../language/describe-value.js';
import { checkStoreKey, LocalFolderStore, type PlanStore } from '../plan-store/index.js';
import { checkOptions } from '../../language/option-keys.js';
import { PLAN_FILE_READ_OPTIONS } from './option-specs.js';

/** Temporary names add 18 bytes to the plan file's; most file systems allow 255 in all. */
const MAX_NAME_BYTES = 200;

export interface PlanFileReadOptions {
  /**
   * The largest plan file read, in bytes; a larger one is refused without being read whole.
   * @default 1_048_576
   */
  readonly maxBytes?: number;
}

export class PlanFile {
  /** Where the plan file is, as its store says it (a path for the plans folder): what messages show. */
  readonly path: string;
  /** The store the plan file is kept in. */
  readonly store: PlanStore;
  readonly #name: string;
  /** Whether this PlanFile made its store (and so closes it). */
  readonly #owned: boolean;
  #closed = false;

  /**
   * Keeps the plan file `name` in `store`, or in a folder: given a directory path, creates it
   * when missing and opens it for the PlanFile's life (a LocalFolderStore); call `close()` to
   * release it sooner than garbage collection would.
   * @throws {TypeError} for a directory, store or file name that is not usable, naming it and why.
   */
  constructor(store: string | PlanStore, name: string, where = 'PlanFile') {
    if (typeof store === 'string') {
      if (store === '' || store.includes('\0')) {
        throw new TypeError(`${where}: plansDir must be a directory path, not ${describeValue(store)}`);
      }
    } else if (!isPlanStore(store)) {
      throw new TypeError(
        `${where}: store must be a PlanStore (read, write, list, delete, locate, close), not ${describeValue(store)}`,
      );
    }
    checkPlanFileName(name, where);
    if (typeof store === 'string') {
      try {
        this.store = new LocalFolderStore({ dir: store });
      } catch (error) {
        const why = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
        throw new TypeError(
          `${where}: plansDir ${describeValue(store)} cannot be created and opened as a folder (${why}); give a directory path you can write to`,
        );
      }
      this.#owned = true;
    } else {
      this.store = store;
      this.#owned = false;
    }
    this.#name = name;
    this.path = this.store.locate(name);
  }

  /**
   * Replaces the plan file's content.
   * @throws {PermissionDeniedError} when the store refuses the write (it would leave the plans
   *   folder, the plan file is a link or not a regular file), or the PlanFile was closed.
   * @throws {TypeError} for content larger than the store keeps.
   */
  async write(content: string): Promise<void> {
    const tool = 'plan_write';
    this.#checkOpen(tool);
    try {
      await this.store.write(this.#name, content);
    } catch (error) {
      throw this.#refusal(error, tool);
    }
  }

  /**
   * The plan file's content, or null when there is none yet.
   * @throws {PermissionDeniedError} when the store refuses the read (a link or not a regular
   *   file, the plans folder moved), or the PlanFile was closed.
   * @throws {TypeError} for a bad option, or a file larger than `maxBytes`.
   */
  async read(options: PlanFileReadOptions = {}): Promise<string | null> {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`PlanFile.read: options must be an object, not ${describeValue(options)}`);
    }
    checkOptions('PlanFile.read', options, PLAN_FILE_READ_OPTIONS);
    const { maxBytes = 1_048_576 } = options;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      throw new TypeError(
        `PlanFile.read: maxBytes must be a positive integer, not ${describeValue(maxBytes)}`,
      );
    }
    const tool = 'exit_plan_mode';
    this.#checkOpen(tool);
    try {
      return await this.store.read(this.#name, { maxBytes });
    } catch (error) {
      if (isPlanStoreError(error) && error.kind === 'too-large') {
        throw new TypeError(
          `the plan file ${this.path} is larger than ${maxBytes} bytes, the most plan mode reads; shorten it`,
          { cause: error },
        );
      }
      throw this.#refusal(error, tool);
    }
  }

  /** Refuses later writes and reads, and releases the plans folder when this PlanFile opened it. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#owned) void this.store.close().catch(() => undefined);
  }

  /** Whether close() was called: the plan tools no longer use the store. */
  get closed(): boolean {
    return this.#closed;
  }

  #checkOpen(tool: string): void {
    if (!this.#closed) return;
    throw new PermissionDeniedError(
      tool,
      `the plan file ${this.path} can no longer be used: its plan tools were closed; make new plan tools to write a plan`,
    );
  }

  #refusal(error: unknown, tool: string): unknown {
    return storeRefusal(error, tool);
  }
}

/**
 * A store's refusal (a link, a folder moved away, a closed store), as a PermissionDeniedError
 * of the plan tool that met it, so the model reads why; anything else as it is.
 */
export function storeRefusal(error: unknown, tool: string): unknown {
  if (!isPlanStoreError(error) || error.kind === 'too-large' || error.kind === 'too-many') return error;
  return new PermissionDeniedError(tool, error.message);
}

/** Whether `value` has a PlanStore's methods. */
export function isPlanStore(value: unknown): value is PlanStore {
  if (value === null || typeof value !== 'object') return false;
  const store = value as Record<string, unknown>;
  return ['read', 'write', 'list', 'delete', 'locate', 'close'].every(
    (method) => typeof store[method] === 'function',
  );
}

/** @throws {TypeError} for a plan file name that is not a plain file name and a store key. */
function checkPlanFileName(name: unknown, where: string): asserts name is string {
  if (
    typeof name !== 'string' ||
    name === '' ||
    name === '.' ||
    name === '..' ||
    /[/\\\0]/.test(name) ||
    isAbsolute(name)
  ) {
    throw new TypeError(
      `${where}: planFile must be a plain file name inside plansDir (no '/', '\\' or '..'), not ${describeValue(name)}`,
    );
  }
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
    throw new TypeError(
      `${where}: planFile must be at most ${MAX_NAME_BYTES} bytes long, not ${describeValue(name)} (${Buffer.byteLength(name)} bytes)`,
    );
  }
  try {
    checkStoreKey(name, where);
  } catch (error) {
    throw new TypeError(`${where}: planFile ${(error as Error).message.slice(where.length + 2)}`);
  }
}
