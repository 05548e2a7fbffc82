/**
 * Group commit for the run journal: the fsyncs that make its records survive a power cut,
 * shared by every completion that asked for one while the previous was under way.
 *
 * A commit request starts an fsync on libuv's thread pool at once when none is running;
 * otherwise it waits for the running one, and the next fsync (started as soon as that one
 * returns) covers every request that came meanwhile. The run never waits for the disk, and the
 * group grows as the disk slows, with no timer. When the event loop is held (calls that end in
 * microtasks, synchronous tools), a finished fsync cannot report back to start the next: a
 * request that finds the oldest uncovered one `maxDelayMs` old starts a second fsync beside the
 * first, which bounds in time what a power cut can take whatever the event loop does (though
 * not what a slow disk takes: past MAX_RUNNING fsyncs, requests wait for one to return).
 *
 * Background fsyncs go through a second descriptor of the same file. On Linux each open file
 * description sees a write-back error once: were the thread pool's fsync to see it on the main
 * descriptor, the final inline fsync at close would find nothing left to report.
 */
import { closeSync, constants, fsync, fsyncSync, openSync } from 'node:fs';
import { describeFsError, JournalError } from './journal-error.js';

export interface GroupCommitOptions {
  /** The journal file, for messages and for the second descriptor. */
  readonly path: string;
  /** The descriptor the journal writes through: inline fsyncs use it. */
  readonly fd: number;
  /**
   * How long a commit request may wait for a running fsync to return before the next request
   * starts another beside it; 0 fsyncs inline on every request (each completion on disk before
   * `request` returns).
   */
  readonly maxDelayMs: number;
}

/** Background fsyncs at once, at most: the thread pool (4 threads) also serves the tools. */
const MAX_RUNNING = 2;

export class GroupCommit {
  readonly #path: string;
  readonly #fd: number;
  readonly #maxDelayMs: number;
  /** The second descriptor, for background fsyncs; undefined when every fsync is inline. */
  #syncFd: number | undefined;
  /** Background fsyncs that have not returned. */
  #running = 0;
  /** performance.now() of the oldest request no started fsync covers; -1 when none. */
  #oldest = -1;
  /** The first fsync that failed: every later request, and close, report it. */
  #failure: JournalError | undefined;
  #closed = false;

  /**
   * @throws {JournalError} when the second descriptor cannot be opened.
   */
  constructor(options: GroupCommitOptions) {
    this.#path = options.path;
    this.#fd = options.fd;
    this.#maxDelayMs = options.maxDelayMs;
    if (this.#maxDelayMs === 0) return;
    try {
      const { O_WRONLY, O_APPEND, O_NOFOLLOW } = constants;
      // Write access: some platforms flush only a descriptor that may write. Nothing is written
      // through it.
      this.#syncFd = openSync(this.#path, O_WRONLY | O_APPEND | O_NOFOLLOW);
    } catch (cause) {
      throw new JournalError(`cannot open the journal file '${this.#path}': ${describeFsError(cause)}`, {
        path: this.#path,
        cause,
      });
    }
  }

  /** @throws {JournalError} when an earlier fsync failed. */
  check(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /**
   * Asks that everything written so far reach the disk: by an fsync started now in the
   * background, or by the next one (see the file's comment); with `maxDelayMs` 0, inline.
   *
   * @throws {JournalError} when this or an earlier fsync failed.
   */
  request(): void {
    this.check();
    if (this.#closed) return;
    if (this.#syncFd === undefined) return this.#inline();
    if (this.#running === 0) return this.#background(this.#syncFd);
    const now = performance.now();
    if (this.#oldest < 0) this.#oldest = now;
    else if (now - this.#oldest >= this.#maxDelayMs && this.#running < MAX_RUNNING) {
      this.#background(this.#syncFd);
    }
  }

  /**
   * The final fsync, inline, through the main descriptor; the second one is closed once no
   * background fsync uses it. The caller closes the main descriptor.
   *
   * @throws {JournalError} when this or an earlier fsync failed.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#oldest = -1;
    if (this.#running === 0) this.#closeSyncFd();
    this.check();
    try {
      fsyncSync(this.#fd);
    } catch (cause) {
      throw this.#failed(cause);
    }
  }

  #inline(): void {
    try {
      fsyncSync(this.#fd);
    } catch (cause) {
      throw this.#failed(cause);
    }
  }

  #background(syncFd: number): void {
    this.#running += 1;
    this.#oldest = -1;
    fsync(syncFd, (cause) => {
      this.#running -= 1;
      if (cause) this.#failed(cause);
      if (this.#closed) {
        if (this.#running === 0) this.#closeSyncFd();
      } else if (this.#running === 0 && this.#oldest >= 0 && this.#failure === undefined) {
        // Requests came while it ran: one fsync for all of them.
        this.#background(syncFd);
      }
    });
  }

  #failed(cause: unknown): JournalError {
    this.#failure ??= new JournalError(
      `cannot flush the journal file '${this.#path}': ${describeFsError(cause)}`,
      { path: this.#path, cause },
    );
    return this.#failure;
  }

  #closeSyncFd(): void {
    const fd = this.#syncFd;
    this.#syncFd = undefined;
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch {
      // Nothing was written through it: the main descriptor's final fsync is the one that counts.
    }
  }
}
