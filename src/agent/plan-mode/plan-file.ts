/**
 * The one file plan mode lets the model write: `<plansDir>/<name>`, nothing else. The name is
 * a plain file name (no separators, no `..`, not absolute), checked when the tools are made.
 *
 * The plans folder is created (when missing) and opened once, at construction; every write
 * and read then goes through that open folder (see opened-folder.ts), never through its name,
 * so neither a link planted where a missing folder would be made, nor a folder (or a parent)
 * swapped for a link while a write is under way, can steer a write outside. The content goes
 * to a fresh temporary file (created exclusively, never through a link), is synced, and is
 * renamed over the plan file, so a hard link to a file outside is replaced, not written
 * through. An existing plan file that is a link or not a regular file is refused, never
 * followed.
 */
import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { PermissionDeniedError } from '../../errors.js';
import { describeValue } from '../../language/describe-value.js';
import { OpenedFolder, OutsideFolderError } from './opened-folder.js';
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
  /** The plan file's path, as `plansDir` was given (what messages show). */
  readonly path: string;
  readonly #folder: OpenedFolder;
  readonly #name: string;

  /**
   * Creates `plansDir` when it is missing and opens it for the PlanFile's life; call `close()`
   * to release it sooner than garbage collection would.
   * @throws {TypeError} for a directory or file name that is not usable, naming it and why.
   */
  constructor(plansDir: string, name: string, where = 'PlanFile') {
    if (typeof plansDir !== 'string' || plansDir === '' || plansDir.includes('\0')) {
      throw new TypeError(`${where}: plansDir must be a directory path, not ${describeValue(plansDir)}`);
    }
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
      this.#folder = new OpenedFolder(plansDir);
    } catch (error) {
      throw new TypeError(
        `${where}: plansDir ${describeValue(plansDir)} cannot be created and opened as a folder (${(error as Error).message}); give a directory path you can write to`,
      );
    }
    this.#name = name;
    this.path = join(plansDir, name);
  }

  /**
   * Replaces the plan file's content.
   * @throws {PermissionDeniedError} when the write would leave the plans folder, the plan file
   *   is a link or not a regular file, or the PlanFile was closed.
   */
  async write(content: string): Promise<void> {
    const tool = 'plan_write';
    await this.#use(tool, async (folder) => {
      await this.#checkName(tool);
      await this.#refuseSpecial(folder, tool);
      const temporary = `.${this.#name}.${randomBytes(6).toString('hex')}.tmp`;
      const handle = await folder.create(temporary, 0o644);
      try {
        await handle.writeFile(content, 'utf8');
        await handle.sync();
      } catch (error) {
        await handle.close();
        await folder.remove(temporary);
        throw error;
      }
      await handle.close();
      try {
        await folder.rename(temporary, this.#name);
      } catch (error) {
        await folder.remove(temporary).catch(() => undefined);
        throw error;
      }
      await folder.sync();
    });
  }

  /**
   * The plan file's content, or null when there is none yet.
   * @throws {PermissionDeniedError} when it is a link or not a regular file, the plans folder
   *   moved, or the PlanFile was closed.
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
    return this.#use(tool, async (folder) => {
      await this.#checkName(tool);
      let handle: FileHandle;
      try {
        handle = await folder.openToRead(this.#name);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return null;
        // O_NOFOLLOW refuses a link with ELOOP (EMLINK on some BSDs).
        if (code === 'ELOOP' || code === 'EMLINK') throw this.#linkRefusal(tool);
        throw error;
      }
      try {
        if (!(await handle.stat()).isFile()) throw this.#notRegular(tool);
        return await readAtMost(handle, maxBytes, this.path);
      } finally {
        await handle.close();
      }
    });
  }

  /** Releases the plans folder; later writes and reads are refused. Idempotent. */
  close(): void {
    this.#folder.close();
  }

  async #use<T>(tool: string, work: (folder: OpenedFolder) => Promise<T>): Promise<T> {
    const folder = this.#folder;
    if (folder.closed) {
      throw new PermissionDeniedError(
        tool,
        `the plan file ${this.path} can no longer be used: its plan tools were closed; make new plan tools to write a plan`,
      );
    }
    try {
      return await folder.hold(() => work(folder));
    } catch (error) {
      if (error instanceof OutsideFolderError) {
        throw new PermissionDeniedError(
          tool,
          `${error.message}; plan mode reads and writes only inside the plans folder`,
        );
      }
      throw error;
    }
  }

  /**
   * Nothing goes through the name, so a moved folder would still be written safely; but the
   * user and the model look for the plan at `path`, and a plan written where nobody looks is
   * a silent loss, so a name that no longer leads to the opened folder is refused, saying so.
   */
  async #checkName(tool: string): Promise<void> {
    const leads = await this.#folder.whereNameLeads();
    if (leads === undefined) return;
    const dir = this.#folder.path;
    throw new PermissionDeniedError(
      tool,
      leads === null
        ? `the plans directory ${dir} was moved or removed after plan mode opened it; plan mode uses only the folder it opened, so put it back or make new plan tools`
        : `the plans directory ${dir} now leads to ${leads}, not to the folder plan mode opened; plan mode uses only the plans directory`,
    );
  }

  /** Refuses a plan file that exists but is not a regular file. */
  async #refuseSpecial(folder: OpenedFolder, tool: string): Promise<void> {
    const stats = await folder.lstat(this.#name);
    if (stats === undefined || stats.isFile()) return;
    throw stats.isSymbolicLink() ? this.#linkRefusal(tool) : this.#notRegular(tool);
  }

  #linkRefusal(tool: string): PermissionDeniedError {
    return new PermissionDeniedError(
      tool,
      `the plan file ${this.path} is a symbolic link; plan mode reads and writes only a regular file inside the plans directory`,
    );
  }

  #notRegular(tool: string): PermissionDeniedError {
    return new PermissionDeniedError(tool, `the plan file ${this.path} is not a regular file`);
  }
}

/** Reads at most `maxBytes` (the file may grow while it is read); more is a TypeError. */
async function readAtMost(handle: FileHandle, maxBytes: number, path: string): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(65_536, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) {
      throw new TypeError(
        `the plan file ${path} is larger than ${maxBytes} bytes, the most plan mode reads; shorten it`,
      );
    }
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
