/** What the CLI reads and writes: streams passed in, so `main` runs in-process in tests. */
import { open } from 'node:fs/promises';
import { checkJson } from '../language/json/index.js';
import { DEFAULT_LIMITS, type Limits } from '../language/limits.js';
import { decodeUtf8, jsonSyntaxDiagnostic, SourceText } from '../language/text/index.js';
import { CliInputError } from './cli-input-error.js';

export interface OutputStream {
  write(text: string): unknown;
  /** True for a terminal; colors are only used then. */
  readonly isTTY?: boolean;
}

export interface CliIo {
  /** Where results go: `--json` objects, graphs. */
  readonly stdout: OutputStream;
  /** Where people read: diagnostics, summaries, errors. */
  readonly stderr: OutputStream;
  /**
   * Read when a file argument is `-`, and for answers at a `plan run` prompt; `isTTY` tells
   * whether a person can answer there.
   */
  readonly stdin: AsyncIterable<string | Uint8Array> & { readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The file argument that means standard input. */
export const STDIN = '-';

/** How a file argument is named in messages: the path as given, or `<stdin>`. */
export function displayName(file: string): string {
  return file === STDIN ? '<stdin>' : file;
}

export interface ReadOptions {
  readonly io: CliIo;
  /**
   * What the file is, for messages.
   * @default 'file'
   */
  readonly what?: string;
  /**
   * Bounds on what is read: a text longer than `maxTextLength` characters is refused as it is
   * read (a FIFO or /dev/zero never ends), and a JSON value over the limits once parsed.
   * @default DEFAULT_LIMITS
   */
  readonly limits?: Limits;
}

/**
 * Reads a whole file, or standard input for `-`, as UTF-8, stopping once it holds more bytes
 * than any text within maxTextLength can (3 per character). Decoded strictly: a byte that is not
 * UTF-8 is refused with its offset, and a UTF-16 or UTF-32 file with its encoding's name.
 * @throws {CliInputError} when the file is missing, unreadable, too long or not UTF-8.
 */
export async function readText(file: string, options: ReadOptions): Promise<string> {
  const what = options.what ?? 'file';
  const maxChars = (options.limits ?? DEFAULT_LIMITS).maxTextLength;
  // UTF-8 takes at most 3 bytes per UTF-16 code unit: past this many bytes no text fits.
  const maxBytes = maxChars * 3;
  const tooLong = () => tooLongError(what, file, maxChars);
  const chunks: Buffer[] = [];
  let bytes = 0;
  const take = (chunk: string | Uint8Array): void => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
    bytes += buffer.length;
    if (bytes > maxBytes) throw tooLong();
    chunks.push(buffer);
  };
  if (file === STDIN) {
    try {
      for await (const chunk of options.io.stdin) take(chunk);
    } catch (cause) {
      if (cause instanceof CliInputError) throw cause;
      throw new CliInputError(`cannot read the ${what} from standard input: ${(cause as Error).message}`);
    }
  } else {
    let handle;
    try {
      handle = await open(file, 'r');
      for await (const chunk of handle.createReadStream({ autoClose: false }) as AsyncIterable<Buffer>)
        take(chunk);
    } catch (cause) {
      if (cause instanceof CliInputError) throw cause;
      throw new CliInputError(unreadable(file, what, cause));
    } finally {
      await handle?.close();
    }
  }
  // A text within the bytes that is still too long is the compiler's to report (E_LIMIT).
  const decoded = decodeUtf8(Buffer.concat(chunks));
  if ('problem' in decoded)
    throw new CliInputError(`${what} '${displayName(file)}' ${decoded.problem.message}`);
  return decoded.text;
}

/** A file (or standard input) longer than limits.maxTextLength allows. */
export function tooLongError(what: string, file: string, maxChars: number): CliInputError {
  return new CliInputError(
    `${what} '${displayName(file)}' is longer than ${maxChars} characters (limits.maxTextLength); raise it with --limit maxTextLength=<n>`,
  );
}

/**
 * Reads a file that must hold a JSON object (an input or state file).
 * @throws {CliInputError} when it is unreadable, not JSON, or not an object.
 */
export async function readJsonObject(file: string, options: ReadOptions): Promise<Record<string, unknown>> {
  const what = options.what ?? 'file';
  const name = displayName(file);
  const raw = await readText(file, options);
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const d = jsonSyntaxDiagnostic(SourceText.fromText(text, name), cause);
    const found = d.message.replace(/^invalid JSON: /, '');
    throw new CliInputError(
      `${what} '${name}' is not valid JSON at ${d.line ?? 1}:${d.column ?? 1}: ${found}; ${d.hint}`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new CliInputError(
      `${what} '${name}' must hold a JSON object, not ${describe(value)}; write {"key": value, ...}`,
    );
  }
  const checked = checkJson(value, { limits: options.limits ?? DEFAULT_LIMITS });
  if ('problem' in checked) {
    const { problem } = checked;
    const where = problem.pointer === '' ? '' : ` at ${problem.pointer}`;
    throw new CliInputError(
      `${what} '${name}'${where} ${problem.message}; ${problem.hint.replace('raise limits.', 'raise --limit ')}`,
    );
  }
  return value as Record<string, unknown>;
}

function unreadable(file: string, what: string, cause: unknown): string {
  const code = (cause as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return `${what} '${file}' does not exist; check the path`;
  if (code === 'EISDIR') return `${what} '${file}' is a directory, not a file`;
  if (code === 'EACCES' || code === 'EPERM')
    return `${what} '${file}' cannot be read (permission denied); check its permissions`;
  return `${what} '${file}' cannot be read: ${cause instanceof Error ? cause.message : String(cause)}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  return `a ${typeof value}`;
}
