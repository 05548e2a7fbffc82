/**
 * The default plan store: one local folder, each key a regular file in it.
 *
 * The folder is created (when missing) and opened once, at construction; every read, write,
 * list and delete then goes through that open folder (see opened-folder.ts), never through its
 * name, so neither a link planted where a missing folder would be made, nor a folder (or a
 * parent) swapped for a link while a write is under way, can steer a write outside. A value
 * goes to a fresh temporary file (created exclusively, never through a link, named with a
 * leading `.` that no key has), is synced, and is renamed over the key's file, so a reader
 * sees the old text or the new and a hard link to a file outside is replaced, not written
 * through. A key's file that is a link or not a regular file is refused, never followed.
 */
import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PlanStoreError } from '../../errors.js';
import { describeValue } from '../../language/describe-value.js';
import { optionKeys, rejectUnknownOptions } from '../../language/option-keys.js';
import { KeyListing } from './key-listing.js';
import { type FolderStrategy, OpenedFolder, OutsideFolderError } from './opened-folder.js';
import {
  checkStoreKey,
  checkStorePrefix,
  checkStoreValue,
  type PlanStore,
  type PlanStoreReadOptions,
  readBound,
  resolveBounds,
} from './plan-store.js';

export interface LocalFolderStoreOptions {
  /**
   * The folder: created when missing and opened once, now. A relative path is resolved once,
   * against the working directory at this call. Required.
   */
  readonly dir: string;
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
  /**
   * How entries are reached: through the open folder's descriptor (`proc`, Linux), or by its
   * real path and then checked (`checked`, every other system; see the security model).
   * @default 'proc' when /proc/self/fd leads to the opened folder, else 'checked'
   */
  readonly strategy?: FolderStrategy;
}

const KEYS = optionKeys<LocalFolderStoreOptions>({
  dir: true,
  maxValueBytes: true,
  maxListKeys: true,
  strategy: true,
});
const WHERE = 'LocalFolderStore';

export class LocalFolderStore implements PlanStore {
  /** The folder's absolute path (for messages: entries are never reached through it). */
  readonly path: string;
  readonly description: string;
  readonly #folder: OpenedFolder;
  readonly #maxValueBytes: number;
  readonly #maxListKeys: number;

  /**
   * @throws {TypeError} for a bad option, or a folder that cannot be created and opened.
   */
  constructor(options: LocalFolderStoreOptions) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(
        `${WHERE}: options must be an object like { dir: 'plans' }, not ${describeValue(options)}`,
      );
    }
    rejectUnknownOptions(WHERE, options, KEYS);
    const { dir, strategy } = options;
    if (typeof dir !== 'string' || dir === '' || dir.includes('\0')) {
      throw new TypeError(`${WHERE}: dir must be a directory path, not ${describeValue(dir)}`);
    }
    const bounds = resolveBounds(options, WHERE);
    this.#maxValueBytes = bounds.maxValueBytes;
    this.#maxListKeys = bounds.maxListKeys;
    this.path = resolve(dir);
    try {
      this.#folder = new OpenedFolder(this.path, strategy === undefined ? {} : { strategy });
    } catch (error) {
      if (error instanceof TypeError)
        throw new TypeError(`${WHERE}: ${error.message.replace(/^OpenedFolder: /, '')}`);
      throw new TypeError(
        `${WHERE}: dir ${describeValue(dir)} cannot be created and opened as a folder (${(error as Error).message}); give a directory path you can write to`,
        { cause: error },
      );
    }
    this.description = `the folder ${this.path}`;
  }

  /** How entries are reached (see the option). */
  get strategy(): FolderStrategy {
    return this.#folder.strategy;
  }

  async read(key: string, options?: PlanStoreReadOptions): Promise<string | null> {
    checkStoreKey(key, `${WHERE}.read`);
    const maxBytes = readBound(options, this.#maxValueBytes, `${WHERE}.read`);
    return this.#use(key, async (folder) => {
      let handle: FileHandle;
      try {
        handle = await folder.openToRead(key);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return null;
        // O_NOFOLLOW refuses a link with ELOOP (EMLINK on some BSDs).
        if (code === 'ELOOP' || code === 'EMLINK') throw this.#link(key);
        throw error;
      }
      try {
        if (!(await handle.stat()).isFile()) throw this.#notRegular(key);
        return await readAtMost(handle, maxBytes, this.locate(key), key);
      } finally {
        await handle.close();
      }
    });
  }

  async write(key: string, text: string): Promise<void> {
    checkStoreKey(key, `${WHERE}.write`);
    checkStoreValue(text, this.#maxValueBytes, `${WHERE}.write`, key);
    await this.#use(key, async (folder) => {
      await this.#refuseSpecial(folder, key);
      const temporary = `.${key}.${randomBytes(6).toString('hex')}.tmp`;
      const handle = await folder.create(temporary, 0o644);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } catch (error) {
        await handle.close();
        await folder.remove(temporary);
        throw error;
      }
      await handle.close();
      try {
        await folder.rename(temporary, key);
      } catch (error) {
        await folder.remove(temporary).catch(() => undefined);
        throw error;
      }
      await folder.sync();
    });
  }

  async list(prefix = ''): Promise<string[]> {
    checkStorePrefix(prefix, `${WHERE}.list`);
    return this.#use(undefined, async (folder) => {
      const listing = new KeyListing(prefix, this.#maxListKeys, this.description);
      for await (const entry of folder.entries()) {
        const name = entry.name;
        if (!name.startsWith(prefix)) continue;
        // A link or a folder is not a key's file (a read would refuse it); a type the
        // directory did not say is asked of the entry itself.
        const known = entry.isFile() || entry.isSymbolicLink() || entry.isDirectory();
        const isFile = known ? entry.isFile() : (await folder.lstat(name))?.isFile() === true;
        if (isFile) listing.add(name);
      }
      return listing.keys();
    });
  }

  async delete(key: string): Promise<boolean> {
    checkStoreKey(key, `${WHERE}.delete`);
    return this.#use(key, async (folder) => {
      const stats = await folder.lstat(key);
      if (stats === undefined) return false;
      // A link is removed itself, never what it leads to; a folder is not a key's file.
      if (stats.isDirectory()) throw this.#notRegular(key);
      await folder.remove(key);
      return true;
    });
  }

  locate(key: string): string {
    return join(this.path, checkStoreKey(key, `${WHERE}.locate`));
  }

  /** Releases the folder (at once, or when the operations under way end); later calls are refused. */
  async close(): Promise<void> {
    this.#folder.close();
  }

  async #use<T>(key: string | undefined, work: (folder: OpenedFolder) => Promise<T>): Promise<T> {
    const folder = this.#folder;
    const keyed = key === undefined ? {} : { key };
    if (folder.closed) {
      throw new PlanStoreError(`${this.description} was closed; open a new store to use it`, {
        kind: 'closed',
        ...keyed,
      });
    }
    try {
      return await folder.hold(async () => {
        await this.#checkName(key);
        return work(folder);
      });
    } catch (error) {
      if (error instanceof OutsideFolderError) {
        throw new PlanStoreError(
          `${error.message}; plan mode reads and writes only inside the plans directory`,
          {
            kind: 'outside',
            ...keyed,
            cause: error,
          },
        );
      }
      throw error;
    }
  }

  /**
   * Nothing goes through the name, so a moved folder would still be written safely; but the
   * user (and the model) look for the files at `path`, and a file written where nobody looks
   * is a silent loss, so a name that no longer leads to the opened folder is refused, saying so.
   */
  async #checkName(key: string | undefined): Promise<void> {
    const leads = await this.#folder.whereNameLeads();
    if (leads === undefined) return;
    throw new PlanStoreError(
      leads === null
        ? `the plans directory ${this.path} was moved or removed after plan mode opened it; plan mode uses only the folder it opened, so put it back or open a new store`
        : `the plans directory ${this.path} now leads to ${leads}, not to the folder plan mode opened; plan mode uses only the plans directory`,
      { kind: 'moved', ...(key !== undefined && { key }) },
    );
  }

  /** Refuses a key's file that exists but is not a regular file. */
  async #refuseSpecial(folder: OpenedFolder, key: string): Promise<void> {
    const stats = await folder.lstat(key);
    if (stats === undefined || stats.isFile()) return;
    throw stats.isSymbolicLink() ? this.#link(key) : this.#notRegular(key);
  }

  #link(key: string): PlanStoreError {
    return new PlanStoreError(
      `${this.locate(key)} is a symbolic link; plan mode reads and writes only a regular file inside the plans directory`,
      { kind: 'link', key },
    );
  }

  #notRegular(key: string): PlanStoreError {
    return new PlanStoreError(`${this.locate(key)} is not a regular file`, { kind: 'not-a-file', key });
  }
}

/** Reads at most `maxBytes` (the file may grow while it is read); more is refused. */
async function readAtMost(handle: FileHandle, maxBytes: number, path: string, key: string): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(65_536, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) {
      throw new PlanStoreError(`${path} is larger than ${maxBytes} bytes, the most this read takes`, {
        kind: 'too-large',
        key,
      });
    }
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
