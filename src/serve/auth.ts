/**
 * Who may talk to the server. On a loopback address without a token, only this machine can
 * reach it; a browser page of another site could still try, so such a server answers only
 * requests whose Host names a loopback address (a DNS rebinding attack names its own host), and
 * takes bodies only as JSON (which a page of another origin cannot send without the browser
 * asking first, and this server answers no such question). With a token, every `/api/` request
 * carries it as `Authorization: Bearer <token>`, compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

/** True for `localhost`, 127.0.0.0/8 and ::1 (with or without brackets). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1' || /^::ffff:127\./i.test(bare);
  return false;
}

/** Checks a request's token (when the server has one) and its Host (when it has none). */
export class Gate {
  readonly #digest: Buffer | null;

  constructor(token: string | undefined) {
    this.#digest = token === undefined ? null : digest(token);
  }

  /** True when requests must carry a token. */
  get needsToken(): boolean {
    return this.#digest !== null;
  }

  /** @throws {HttpError} 401 for a missing or wrong token, 403 for a Host that is not loopback. */
  check(request: IncomingMessage): void {
    if (this.#digest === null) {
      const host = hostName(request.headers.host ?? '');
      if (!isLoopbackHost(host)) {
        throw new HttpError(
          403,
          'forbidden_host',
          'this server has no token and answers only requests addressed to a loopback host (127.0.0.1, localhost, [::1])',
        );
      }
      return;
    }
    const header = request.headers.authorization ?? '';
    const match = /^Bearer +(\S+) *$/i.exec(header);
    // Hashing both sides first makes the comparison's time independent of the token's length too.
    if (!match || !timingSafeEqual(digest(match[1]!), this.#digest)) {
      throw new HttpError(401, 'unauthorized', 'this server needs Authorization: Bearer <token>');
    }
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The host of a Host header, its port left out. */
function hostName(header: string): string {
  if (header.startsWith('[')) {
    const end = header.indexOf(']');
    return end < 0 ? header : header.slice(0, end + 1);
  }
  const colon = header.lastIndexOf(':');
  return colon < 0 ? header : header.slice(0, colon);
}
