/**
 * A session kept in one file: `fileSession(path)` is a {@link SolveSession} whose snapshots are
 * written to `path` atomically (a temporary file beside it, flushed, then renamed over it: a
 * process killed mid-write leaves the previous snapshot whole) and read back bounded in bytes
 * before they are parsed, then checked like any snapshot (session-read.ts).
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { SessionError } from '../../errors.js';
import type { Limits } from '../../language/limits.js';
import { bad, readSnapshot } from './session-read.js';
import type { SolveSession, SolveSnapshot } from './session.js';
import { checkOptions, type OptionSpec } from '../../language/option-keys.js';

/** The largest snapshot file read by default. */
export const DEFAULT_MAX_SESSION_BYTES = 64 * 1024 * 1024;

export interface FileSessionOptions {
  /**
   * Most bytes of the file read: a larger file is refused before any of it is parsed.
   * @default DEFAULT_MAX_SESSION_BYTES (64 MiB)
   */
  readonly maxBytes?: number;
  /**
   * Bounds on the snapshot's depth, size and keys.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Limits;
  /** See {@link SolveSession.allowToolChanges}. @default false */
  readonly allowToolChanges?: boolean;
}

export interface FileSession extends SolveSession {
  readonly path: string;
  /** The file's snapshot (read once, then kept), or undefined when there is no file. */
  load(): Promise<SolveSnapshot | undefined>;
}

/** maxBytes and limits have their own checks. */
const FILE_SESSION_OPTIONS: OptionSpec<FileSessionOptions> = {
  maxBytes: 'any',
  limits: 'any',
  allowToolChanges: 'boolean',
};

export function fileSession(path: string, options: FileSessionOptions = {}): FileSession {
  if (typeof path !== 'string' || path === '')
    throw new TypeError('fileSession: path must be a non-empty string');
  checkOptions('fileSession', options, FILE_SESSION_OPTIONS);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_SESSION_BYTES;
  let loaded: Promise<SolveSnapshot | undefined> | undefined;
  return {
    path,
    ...(options.allowToolChanges !== undefined && { allowToolChanges: options.allowToolChanges }),
    load: () => (loaded ??= readSessionFile(path, maxBytes, options.limits)),
    save: (snapshot) => writeAtomically(path, `${JSON.stringify(snapshot)}\n`),
  };
}

async function readSessionFile(
  path: string,
  maxBytes: number,
  limits: Limits | undefined,
): Promise<SolveSnapshot | undefined> {
  const source = { path, ...(limits && { limits }) };
  let text: string;
  try {
    const file = await open(path, 'r');
    try {
      // One byte more than allowed: a file that fills it is too large, whatever stat said.
      const buffer = Buffer.alloc(Math.min(maxBytes + 1, (await file.stat()).size + 1));
      let read = 0;
      while (read < buffer.length) {
        const { bytesRead } = await file.read(buffer, read, buffer.length - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      if (read > maxBytes) {
        throw bad(source, '', `the file is larger than ${maxBytes} bytes (maxBytes)`);
      }
      text = buffer.toString('utf8', 0, read);
    } finally {
      await file.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof SessionError) throw error;
    throw new SessionError(`cannot read the session file '${path}': ${(error as Error).message}`, {
      kind: 'io',
      path,
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const truncated = text.trim() === '' || !text.trimEnd().endsWith('}');
    throw bad(
      source,
      '',
      `${truncated ? 'the file is empty or truncated' : 'the file is not JSON'} (${(error as Error).message})`,
    );
  }
  return readSnapshot(value, source);
}

/** Writes `text` to a temporary file beside `path`, flushes it, and renames it over `path`. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const file = await open(temporary, 'wx', 0o600);
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new SessionError(`cannot write the session file '${path}': ${(error as Error).message}`, {
      kind: 'io',
      path,
      cause: error,
    });
  }
}
