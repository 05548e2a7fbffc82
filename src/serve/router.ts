/**
 * Routes: a method and a path of fixed segments and `:id` segments. An id is letters, digits,
 * `_` and `-` (at most 100): anything else (`..`, `%2e`, a slash encoded or not) matches no
 * route and is a 404, so no id ever reaches a lookup it was not made for. A path that matches
 * a route but not its method is a 405 naming the methods it takes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './http-error.js';

const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The longest request target read; a longer one matches nothing. */
const MAX_TARGET_LENGTH = 2048;

export type Handler = (
  request: IncomingMessage,
  response: ServerResponse,
  params: readonly string[],
) => void | Promise<void>;

interface Route {
  readonly method: string;
  readonly segments: readonly string[];
  readonly handler: Handler;
}

export class Router {
  readonly #routes: Route[] = [];

  on(method: string, path: string, handler: Handler): this {
    this.#routes.push({ method, segments: path.split('/').slice(1), handler });
    return this;
  }

  /**
   * The handler for a request and its `:id` values, in order.
   * @throws {HttpError} 404 when no route has the path, 405 when none has it with this method.
   */
  match(method: string, target: string): { handler: Handler; params: string[] } {
    const path = target.length > MAX_TARGET_LENGTH ? '' : target.split('?', 1)[0]!;
    const parts = path.split('/').slice(1);
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method || (method === 'HEAD' && route.method === 'GET'))
        return { handler: route.handler, params };
      allowed.push(route.method);
    }
    if (allowed.length > 0)
      throw new HttpError(405, 'method_not_allowed', `${path} takes ${allowed.join(', ')}, not ${method}`, {
        allow: allowed.join(', '),
      });
    throw new HttpError(404, 'not_found', `no such route: ${method} ${path.slice(0, 200)}`);
  }
}

function matchSegments(pattern: readonly string[], parts: readonly string[]): string[] | null {
  if (pattern.length !== parts.length) return null;
  const params: string[] = [];
  for (let k = 0; k < pattern.length; k++) {
    const want = pattern[k]!;
    const got = parts[k]!;
    if (want === ':id') {
      if (!ID.test(got)) return null;
      params.push(got);
    } else if (want !== got) return null;
  }
  return params;
}
