/**
 * The journal's dealings with the file system: its folder, and opening its files so that no
 * link, no other kind of file and no second name of an outside file is ever written through.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describeFsError, JournalError } from './journal-error.js';

/**
 * Creates the journal folder and its missing parents.
 * @throws {JournalError} when it cannot be created, or is not a folder.
 */
export function makeJournalDirectory(dir: string): void {
  try {
    makeDirectory(dir);
  } catch (cause) {
    throw new JournalError(`cannot create the journal directory '${dir}': ${describeFsError(cause)}`, {
      path: dir,
      cause,
    });
  }
}

/**
 * Opens the run's own journal for appending (creating it when missing), never through a link: a
 * link planted at its name would send the run's events, and its truncation, to whatever it
 * points at. A FIFO, a device or a second name of another file (a hard link) is refused too,
 * so that the caller may empty it.
 *
 * @throws {JournalError} when it cannot be opened, or is not a regular file with one name.
 */
export function openJournalFile(path: string): number {
  let fd: number;
  try {
    const { O_RDWR, O_CREAT, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = constants;
    fd = openSync(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK, 0o644);
  } catch (cause) {
    throw new JournalError(`cannot open the journal file '${path}': ${describeFsError(cause)}`, {
      path,
      cause,
    });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notRegular(path);
    if (stat.nlink > 1) {
      throw new JournalError(
        `cannot open the journal file '${path}': it has ${stat.nlink} names (hard links), so writing it would change a file elsewhere; remove it`,
        { path },
      );
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/**
 * Opens another journal of the folder for reading: never through a link, never blocking on a
 * FIFO. Undefined when it does not exist.
 *
 * @throws {JournalError} when it cannot be opened, or is not a regular file.
 */
export function openJournalForReading(path: string): number | undefined {
  let fd: number;
  try {
    const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;
    fd = openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (cause) {
    if ((cause as { code?: unknown }).code === 'ENOENT') return undefined;
    throw new JournalError(`cannot read the journal file '${path}': ${describeFsError(cause)}`, {
      path,
      cause,
    });
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw notRegular(path);
  }
  return fd;
}

/**
 * The first line of the file (without its newline), read in small pieces up to `maxBytes`;
 * undefined when none ends within them.
 */
export function readFirstLine(fd: number, maxBytes: number): Buffer | undefined {
  let buffer = Buffer.alloc(Math.min(4096, maxBytes));
  let size = 0;
  for (;;) {
    const read = readSync(fd, buffer, size, buffer.length - size, size);
    const newline = buffer.subarray(size, size + read).indexOf(0x0a);
    if (newline >= 0) return buffer.subarray(0, size + newline);
    size += read;
    if (read === 0 || size >= maxBytes) return undefined;
    if (size === buffer.length) {
      const larger = Buffer.alloc(Math.min(buffer.length * 4, maxBytes));
      buffer.copy(larger, 0, 0, size);
      buffer = larger;
    }
  }
}

export function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** Makes a new journal file's directory entry durable too; not every platform can open a directory. */
export function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Best effort: the file's own contents are what `sync` guarantees.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function notRegular(path: string): JournalError {
  return new JournalError(
    `cannot open the journal file '${path}': it is not a regular file (a FIFO, a device or a socket); remove it or choose another journal directory`,
    { path },
  );
}

/**
 * `mkdir -p`, one level at a time. Node 20's `mkdirSync(dir, { recursive: true })` never
 * returns for some paths (seen under /proc); creating each missing level plainly fails fast.
 */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let current = resolve(dir);
  while (!existsSync(current)) {
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (let k = missing.length - 1; k >= 0; k--) mkdirSync(missing[k]!);
  if (missing.length === 0 && !statSync(current).isDirectory()) {
    throw Object.assign(new Error(`'${current}' is not a directory`), { code: 'ENOTDIR' });
  }
}
