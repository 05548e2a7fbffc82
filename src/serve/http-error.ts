/**
 * What the server answers when it will not do what was asked: one JSON shape for every refusal,
 * `{ "error": { "code", "message", ... } }` with a 4xx (or 5xx) status, so a client reads one
 * field to tell a bad body from a missing run.
 */
import type { ServerResponse } from 'node:http';

/** The codes a refusal carries; each is listed in docs/serve.md. */
export const SERVE_ERROR_CODES = [
  'bad_json',
  'body_too_large',
  'unsupported_media_type',
  'bad_request',
  'invalid_plan',
  'unauthorized',
  'forbidden_host',
  'not_found',
  'method_not_allowed',
  'already_answered',
  'too_many_runs',
  'no_model',
  'conflict',
  'internal',
] as const;

export type ServeErrorCode = (typeof SERVE_ERROR_CODES)[number];

/** A refusal: its status, code and message, and any details (a plan's diagnostics). */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: ServeErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

/** Writes `value` as the whole JSON answer. */
export function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  response.end(body);
}

/** Writes a refusal as `{ error: { code, message, ...details } }`. */
export function sendError(response: ServerResponse, error: HttpError): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const headers: Record<string, string> = {};
  // A body left unread (too large, or not JSON) is not drained: the connection ends instead.
  if (error.status === 413 || error.status === 415) headers.connection = 'close';
  if (error.status === 401) headers['www-authenticate'] = 'Bearer';
  if (error.status === 405 && typeof error.details.allow === 'string') headers.allow = error.details.allow;
  sendJson(
    response,
    error.status,
    { error: { ...error.details, code: error.code, message: error.message } },
    headers,
  );
}
