/**
 * A folder opened once and then used through that handle for the rest of its life, never by
 * its name again: renaming the folder or any folder above it, or putting a symbolic link in
 * its place, does not change where entries are made. The local folder store uses it so that
 * `plan_write` cannot be steered outside the plans folder by swapping names while it works.
 *
 * Node has no openat(). On Linux, `/proc/self/fd/<fd>` is a magic link the kernel resolves to
 * the very directory the descriptor holds (not to a name), so `/proc/self/fd/<fd>/<entry>`
 * opens, renames and lstats an entry of that directory whatever happened to the names since.
 * Every operation of the `proc` strategy goes through it.
 *
 * Where that is not available (macOS and the BSDs have no such links; some Linux containers
 * mount no /proc), the `checked` strategy opens entries by the folder's real path, with
 * O_NOFOLLOW|O_EXCL, and then checks what it opened: the file's device is the folder's, the
 * real path still leads to the directory the descriptor holds, and the entry there has the
 * file's inode. That fallback is CHECK-THEN-USE: a swap that happens between the check and
 * the next system call, and is undone before the check after it, goes unseen. It narrows the
 * window to a few system calls, refuses (and removes what it created) whenever a check fails,
 * and is the best Node allows without openat().
 */
import {
  type BigIntStats,
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  fsync as fsyncCallback,
  mkdirSync,
  openSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { type FileHandle, lstat, open, opendir, realpath, rename, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describeValue } from '../../language/describe-value.js';

const fsync = promisify(fsyncCallback);

/** A new entry: never an existing file, never through a link. */
const CREATE_FLAGS = constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_WRONLY;
/** O_NONBLOCK so a FIFO planted under the entry's name cannot block the open (it is refused after fstat). */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** An entry that would be made or read outside the folder: the caller refuses the operation. */
export class OutsideFolderError extends Error {
  override name = 'OutsideFolderError';
}

/** How entries are reached: through the descriptor (`proc`), or by name and then checked. */
export type FolderStrategy = 'proc' | 'checked';

export interface OpenFolderOptions {
  /**
   * The strategy; `checked` is for platforms without /proc/self/fd (and for testing it on Linux).
   * @default 'proc' when /proc/self/fd leads to the opened folder, else 'checked'
   */
  readonly strategy?: FolderStrategy;
}

// A folder nobody closed is closed when it is collected, so forgotten plan tools do not leak descriptors.
const unclosed = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already gone: nothing to release.
  }
});

export class OpenedFolder {
  /** The folder's absolute path, as it was given (for messages only: never used to reach entries). */
  readonly path: string;
  /** How entries are reached. */
  readonly strategy: FolderStrategy;
  readonly #fd: number;
  readonly #dev: bigint;
  readonly #ino: bigint;
  /** The folder's real path when it was opened: the `checked` strategy's only way in. */
  readonly #real: string;
  #busy = 0;
  #closed = false;

  /**
   * Creates the folder when it is missing, then opens it. A folder created here is opened with
   * O_NOFOLLOW, so a link planted between the mkdir and the open is refused; one that already
   * existed is opened as the caller named it, links included (that is the caller's choice).
   * @throws {Error} with the system's code when the folder cannot be created or opened.
   */
  constructor(path: string, options: OpenFolderOptions = {}) {
    const { strategy } = options;
    if (strategy !== undefined && strategy !== 'proc' && strategy !== 'checked') {
      throw new TypeError(
        `OpenedFolder: strategy must be 'proc' or 'checked', not ${describeValue(strategy)}`,
      );
    }
    this.path = resolve(path);
    const created = mkdirSync(this.path, { recursive: true }) !== undefined;
    const flags = constants.O_RDONLY | constants.O_DIRECTORY | (created ? constants.O_NOFOLLOW : 0);
    this.#fd = openSync(this.path, flags);
    try {
      const opened = fstatSync(this.#fd, { bigint: true });
      if (!opened.isDirectory())
        throw Object.assign(new Error(`${this.path} is not a directory`), { code: 'ENOTDIR' });
      this.#dev = opened.dev;
      this.#ino = opened.ino;
      this.#real = realpathSync(this.path);
      if (!this.#sameFolder(statSync(this.#real, { bigint: true }))) {
        throw new OutsideFolderError(`${this.path} was replaced while it was being opened`);
      }
      const viaProc = this.#procLeadsHere();
      if (strategy === 'proc' && !viaProc) {
        throw new TypeError(`OpenedFolder: strategy 'proc' needs /proc/self/fd, which this system lacks`);
      }
      this.strategy = strategy ?? (viaProc ? 'proc' : 'checked');
    } catch (error) {
      closeSync(this.#fd);
      throw error;
    }
    unclosed.register(this, this.#fd, this);
  }

  /**
   * Runs `work` with the descriptor held open: a `close()` meanwhile waits for it, so the
   * descriptor's number cannot be reused by another open while `work` still names it.
   * @throws {OutsideFolderError} when the folder was closed already.
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new OutsideFolderError(`the folder ${this.path} was closed`);
    this.#busy++;
    try {
      return await work();
    } finally {
      this.#busy--;
      if (this.#closed && this.#busy === 0) this.#release();
    }
  }

  /** Releases the descriptor (at once, or when the last held operation ends). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#busy === 0) this.#release();
  }

  /** Whether close() was called (the descriptor may still be held by a running operation). */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Where the folder's name leads now, when that is not the opened folder: its real path, or
   * null when the name leads nowhere. Undefined when the name still leads here. Advisory only:
   * nothing is ever reached through the name.
   */
  async whereNameLeads(): Promise<string | null | undefined> {
    try {
      if (this.#sameFolder(await stat(this.path, { bigint: true }))) return undefined;
    } catch {
      return null;
    }
    try {
      return await realpath(this.path);
    } catch {
      return null;
    }
  }

  /** A new entry, created exclusively and never through a link, open for writing. */
  async create(name: string, mode: number): Promise<FileHandle> {
    const handle = await open(this.#entry(name), CREATE_FLAGS, mode);
    if (this.strategy === 'proc') return handle;
    let file: BigIntStats | undefined;
    try {
      file = await handle.stat({ bigint: true });
      await this.#checkOpened(file, name);
    } catch (error) {
      await handle.close();
      if (file) await this.#removeIfSame(file, name);
      throw error;
    }
    return handle;
  }

  /** An existing entry, open for reading; a link is refused by the system (ELOOP). */
  async openToRead(name: string): Promise<FileHandle> {
    const handle = await open(this.#entry(name), READ_FLAGS);
    if (this.strategy === 'proc') return handle;
    try {
      await this.#checkOpened(await handle.stat({ bigint: true }), name);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle;
  }

  /** The entry's own status (a link is reported as a link), or undefined when there is none. */
  async lstat(name: string): Promise<BigIntStats | undefined> {
    try {
      return await lstat(this.#entry(name), { bigint: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Renames one entry over another (atomically; a link at `to` is replaced, not followed). */
  async rename(from: string, to: string): Promise<void> {
    if (this.strategy === 'proc') return rename(this.#entry(from), this.#entry(to));
    await this.#checkRealPath();
    await rename(this.#entry(from), this.#entry(to));
    // Check-then-use (see the header): a swap undone before this check is not seen.
    await this.#checkRealPath();
  }

  /** Removes an entry; nothing there is fine. */
  async remove(name: string): Promise<void> {
    if (this.strategy === 'checked') await this.#checkRealPath();
    try {
      await unlink(this.#entry(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /** Makes a rename in the folder durable. */
  async sync(): Promise<void> {
    try {
      await fsync(this.#fd);
    } catch (error) {
      // Some file systems cannot sync a directory; the rename itself is still atomic there.
      if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
    }
  }

  /**
   * The folder's entries, one at a time, so that a folder of a million entries is walked, not
   * read into memory whole; stop early by leaving the loop.
   */
  async *entries(): AsyncGenerator<Dirent> {
    if (this.strategy === 'checked') await this.#checkRealPath();
    const dir = await opendir(this.#entry('.'), { bufferSize: 64 });
    // for await closes the Dir when the loop ends, early or not.
    for await (const entry of dir) yield entry;
    // Check-then-use (see the header): a swap undone before this check is not seen.
    if (this.strategy === 'checked') await this.#checkRealPath();
  }

  #entry(name: string): string {
    if (this.#closed && this.#busy === 0) throw new OutsideFolderError(`the folder ${this.path} was closed`);
    return this.strategy === 'proc' ? `/proc/self/fd/${this.#fd}/${name}` : join(this.#real, name);
  }

  #sameFolder(stats: BigIntStats): boolean {
    return stats.isDirectory() && stats.dev === this.#dev && stats.ino === this.#ino;
  }

  #procLeadsHere(): boolean {
    if (process.platform !== 'linux') return false;
    try {
      return this.#sameFolder(statSync(`/proc/self/fd/${this.#fd}`, { bigint: true }));
    } catch {
      return false;
    }
  }

  async #checkRealPath(): Promise<void> {
    let stats: BigIntStats | undefined;
    try {
      stats = await stat(this.#real, { bigint: true });
    } catch {
      stats = undefined;
    }
    if (!stats || !this.#sameFolder(stats)) {
      throw new OutsideFolderError(`${this.#real} no longer leads to the folder opened as ${this.path}`);
    }
  }

  /** The `checked` strategy's test of an opened entry: on this device, and named in this folder. */
  async #checkOpened(file: BigIntStats, name: string): Promise<void> {
    const entry = await this.lstat(name);
    await this.#checkRealPath();
    if (file.dev !== this.#dev || !entry || entry.dev !== file.dev || entry.ino !== file.ino) {
      throw new OutsideFolderError(`${name} was opened outside the folder ${this.path}`);
    }
  }

  async #removeIfSame(file: BigIntStats, name: string): Promise<void> {
    try {
      const entry = await lstat(this.#entry(name), { bigint: true });
      if (entry.dev === file.dev && entry.ino === file.ino) await unlink(this.#entry(name));
    } catch {
      // Best effort (see the header); the refusal is reported either way.
    }
  }

  #release(): void {
    unclosed.unregister(this);
    closeSync(this.#fd);
  }
}
