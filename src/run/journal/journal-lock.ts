/**
 * The lock that lets one process at a time use a journal: `<key>.lock` beside `<key>.jsonl`,
 * created with O_EXCL (so that of two processes creating it, one fails) and holding its owner's
 * pid, host name and start time. A second run of the same journal, resuming or starting afresh,
 * is refused while the lock is there, naming its owner.
 *
 * A process killed with SIGKILL leaves its lock behind. A lock whose owner ran on this host and
 * no longer runs is stale, and is taken over (the run reports it): under `<key>.lock.takeover`,
 * itself created with O_EXCL, so that of two processes finding the same stale lock only one
 * removes it, and only when the lock still holds the very text it judged stale (which carries a
 * random nonce): never a lock another process took meanwhile. A lock of another host cannot be
 * judged (its pid means nothing here): it is refused like a live one.
 *
 * Nothing is followed through a link and only regular files are read: the names are the key's,
 * in the journal's folder.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describeFsError, JournalError } from './journal-error.js';
import type { StaleJournalLock } from '../types.js';

/** Who holds a lock. */
export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  /** When the owner took the lock (ISO 8601). */
  readonly startedAt: string;
}

/** The most bytes of a lock file read: an owner is a short JSON line. */
const MAX_LOCK_BYTES = 4096;

/** Rounds of "create, find it taken, judge it" before giving up: each takeover makes room once. */
const ATTEMPTS = 3;

/** The locks this process holds, removed at its exit should a run not get to close its journal. */
const held = new Set<JournalLock>();
let exitHook = false;

export class JournalLock {
  /** The lock file. */
  readonly path: string;
  /** The stale locks taken over to get this one (of this journal), oldest first. */
  readonly tookOver: readonly StaleJournalLock[];
  /** What the file holds: compared before it is removed, so that only this lock is. */
  readonly #text: string;
  #released = false;

  private constructor(path: string, text: string, tookOver: readonly StaleJournalLock[]) {
    this.path = path;
    this.#text = text;
    this.tookOver = tookOver;
  }

  /**
   * Takes the lock of the journal `<dir>/<key>.jsonl`.
   *
   * @throws {JournalError} when another process holds it (naming it), when something that is not
   *   a lock planmode wrote is at its name, or when it cannot be created.
   */
  static acquire(dir: string, key: string): JournalLock {
    const path = join(dir, `${key}.lock`);
    const journal = join(dir, `${key}.jsonl`);
    const owner: LockOwner & { readonly nonce: string } = {
      pid: process.pid,
      hostname: hostname(),
      startedAt: new Date().toISOString(),
      nonce: randomUUID(),
    };
    const text = `${JSON.stringify(owner)}\n`;
    const tookOver: StaleJournalLock[] = [];
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (create(path, text)) {
        const lock = new JournalLock(path, text, tookOver);
        hold(lock);
        return lock;
      }
      const found = readLock(path, journal);
      // Removed between our attempt and the read: try again.
      if (found === undefined) continue;
      const stale = staleOwner(found.owner);
      if (!stale) throw inUse(journal, path, found.owner);
      takeOver(path, journal, found);
      tookOver.push({ lock: path, ...found.owner });
    }
    throw new JournalError(
      `the journal '${journal}' is being locked and unlocked by other processes: wait for them to end, then try again`,
      { path: journal },
    );
  }

  /** Removes the lock, when it is still this one. Calling it again does nothing; never throws. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    held.delete(this);
    try {
      if (readText(this.path) === this.#text) unlinkSync(this.path);
    } catch {
      // Gone already, or unreadable: it is not ours to remove then.
    }
  }
}

/** Removes the locks still held when the process exits (process.exit, the end of main). */
function hold(lock: JournalLock): void {
  held.add(lock);
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const lock of [...held]) lock.release();
  });
}

/** @returns false when something is at the name already. */
function create(path: string, text: string): boolean {
  let fd: number;
  try {
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
    // O_EXCL with O_CREAT never follows a link at the name: it fails with EEXIST.
    fd = openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
  } catch (cause) {
    if ((cause as { code?: unknown }).code === 'EEXIST') return false;
    throw new JournalError(`cannot create the journal lock '${path}': ${describeFsError(cause)}`, {
      path,
      cause,
    });
  }
  try {
    writeSync(fd, text);
  } catch (cause) {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // The write error is the one to report.
    }
    throw new JournalError(`cannot write the journal lock '${path}': ${describeFsError(cause)}`, {
      path,
      cause,
    });
  }
  closeSync(fd);
  return true;
}

interface FoundLock {
  readonly owner: LockOwner;
  /** The file's whole text, as read. */
  readonly text: string;
}

/**
 * The owner a lock names; undefined when the lock is gone.
 * @throws {JournalError} for a link, a file that is not a regular one, or one that names no owner.
 */
function readLock(path: string, journal: string): FoundLock | undefined {
  let text: string;
  try {
    text = readText(path);
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    if (code === 'ENOENT') return undefined;
    throw new JournalError(
      `cannot read the lock '${path}' of the journal '${journal}': ${code === 'NOT_REGULAR' ? 'it is not a regular file; remove it' : describeFsError(cause)}`,
      { path, cause },
    );
  }
  const owner = parseOwner(text);
  if (owner === undefined) {
    throw new JournalError(
      `the journal '${journal}' is locked by '${path}', which names no process (a run is taking it at this instant, or was killed while it did): try again, or remove '${path}' if no run uses the journal`,
      { path },
    );
  }
  return { owner, text };
}

/**
 * The file's text, up to MAX_LOCK_BYTES: never through a link, never blocking on a FIFO.
 * @throws the fs error; one with code NOT_REGULAR for what is not a regular file.
 */
function readText(path: string): string {
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;
  const fd = openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile())
      throw Object.assign(new Error('not a regular file'), { code: 'NOT_REGULAR' });
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    let size = 0;
    for (let read = -1; read !== 0 && size < buffer.length; size += read) {
      read = readSync(fd, buffer, size, buffer.length - size, size);
    }
    return buffer.toString('utf8', 0, size);
  } finally {
    closeSync(fd);
  }
}

function parseOwner(text: string): LockOwner | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { pid, hostname: host, startedAt } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(pid) || (pid as number) <= 0) return undefined;
  if (typeof host !== 'string' || typeof startedAt !== 'string') return undefined;
  return { pid: pid as number, hostname: host, startedAt };
}

/** True when the owner ran on this host and runs no more. */
function staleOwner(owner: LockOwner): boolean {
  if (owner.hostname !== hostname() || owner.pid === process.pid) return false;
  try {
    // Signal 0 checks that the process exists without touching it.
    process.kill(owner.pid, 0);
    return false;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as { code?: unknown }).code === 'ESRCH';
  }
}

/**
 * Removes a stale lock, when it still holds the text judged stale, under the takeover file.
 * @throws {JournalError} when another process is taking the same lock over (or was killed while
 *   it did, leaving the takeover file).
 */
function takeOver(path: string, journal: string, stale: FoundLock): void {
  const takeover = `${path}.takeover`;
  if (!create(takeover, `${process.pid}\n`)) {
    throw new JournalError(
      `the journal '${journal}' has a lock left by process ${stale.owner.pid} (started ${stale.owner.startedAt}), which no longer runs, and another process is taking it over: try again, or remove '${path}' and '${takeover}' if no run uses the journal`,
      { path: journal },
    );
  }
  try {
    let current: string | undefined;
    try {
      current = readText(path);
    } catch {
      // Gone (or replaced by something unreadable, which the next round reports).
    }
    if (current === stale.text) unlinkSync(path);
  } finally {
    unlinkSync(takeover);
  }
}

function inUse(journal: string, path: string, owner: LockOwner): JournalError {
  const here = owner.hostname === hostname();
  const who =
    here && owner.pid === process.pid
      ? `another run in this process (${owner.pid}, started ${owner.startedAt}): wait for that run to end`
      : here
        ? `process ${owner.pid} (started ${owner.startedAt}): wait for it to end, or stop it`
        : `process ${owner.pid} on host '${owner.hostname}' (started ${owner.startedAt}): wait for it to end, or remove '${path}' if it no longer runs`;
  return new JournalError(`the journal '${journal}' is in use by ${who}`, { path: journal });
}
