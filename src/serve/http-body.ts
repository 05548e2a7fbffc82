/**
 * A request's JSON body, read within bounds before anything walks it: at most `maxBytes` bytes
 * (reading stops at the first byte past them), strict UTF-8, JSON.parse (which does not recurse
 * on the stack), then the value's depth, keys and size checked against the limits without
 * recursion. A body that fails any of these changes nothing.
 */
import type { IncomingMessage } from 'node:http';
import { checkJson } from '../language/json/index.js';
import type { Limits } from '../language/limits.js';
import { HttpError } from './http-error.js';

export interface BodyBounds {
  /** Most bytes of the body. */
  readonly maxBytes: number;
  /** Depth, keys and size of the parsed value. */
  readonly limits: Limits;
}

/**
 * @throws {HttpError} 415 when the body is not declared JSON (what keeps a page of another site
 *   from posting here without the browser asking first), 413 past `maxBytes`, 400 `bad_json`
 *   for text that is not UTF-8 JSON or a value past the limits.
 */
export async function readJsonBody(request: IncomingMessage, bounds: BodyBounds): Promise<unknown> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new HttpError(
      415,
      'unsupported_media_type',
      `the body must be JSON sent with Content-Type: application/json, not ${type === '' ? 'no Content-Type' : `'${type}'`}`,
    );
  }
  const declared = Number(request.headers['content-length']);
  // Past the bound nothing more is read: the answer closes the connection (see sendError).
  if (Number.isFinite(declared) && declared > bounds.maxBytes) throw tooLarge(bounds.maxBytes);
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= bounds.maxBytes) {
        chunks.push(chunk);
        return;
      }
      request.off('data', onData);
      request.off('end', onEnd);
      request.pause();
      reject(tooLarge(bounds.maxBytes));
    };
    const onEnd = () => resolve(Buffer.concat(chunks, bytes));
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', reject);
  });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new HttpError(400, 'bad_json', 'the body is not UTF-8 text');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, 'bad_json', `the body is not JSON: ${(e as Error).message}`);
  }
  const checked = checkJson(value, { limits: bounds.limits });
  if ('problem' in checked) {
    const { problem } = checked;
    throw new HttpError(
      400,
      'bad_json',
      `the body${problem.pointer === '' ? '' : ` at ${problem.pointer}`} ${problem.message}`,
      {
        pointer: problem.pointer,
      },
    );
  }
  return value;
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(
    413,
    'body_too_large',
    `the body is larger than ${maxBytes} bytes (the server's maxBodyBytes)`,
    { maxBytes },
  );
}

/** The body must be a JSON object; `what` names the request in the message. */
export function asObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, 'bad_request', `${what} takes a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** Refuses members the request does not take: a typo never goes unnoticed. */
export function onlyKeys(body: Record<string, unknown>, keys: readonly string[], what: string): void {
  for (const key of Object.keys(body)) {
    if (!keys.includes(key)) {
      throw new HttpError(
        400,
        'bad_request',
        `${what}: unknown member ${JSON.stringify(key.slice(0, 100))}; it takes ${keys.join(', ')}`,
      );
    }
  }
}
