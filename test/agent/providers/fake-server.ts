/**
 * An HTTP server on 127.0.0.1 for provider tests: it records what the SDK sent and answers
 * with whatever the test writes, SSE included. Nothing leaves the machine.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedHttpRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body parsed as JSON (undefined when empty). */
  readonly body: unknown;
}

export type Handler = (
  request: RecordedHttpRequest,
  response: ServerResponse,
  closed: Promise<void>,
) => void | Promise<void>;

export interface FakeServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedHttpRequest[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<FakeServer> {
  const requests: RecordedHttpRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const recorded: RecordedHttpRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text === '' ? undefined : JSON.parse(text),
      };
      requests.push(recorded);
      // Resolves when the client goes away (an abort) or the answer is done.
      const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
      Promise.resolve(handler(recorded, res, closed)).catch((error: unknown) => {
        res.destroy(error as Error);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: a server was there and is closed. */
export async function closedPort(): Promise<string> {
  const server = await startServer(() => undefined);
  await server.close();
  return server.url;
}

export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

export function startSse(response: ServerResponse): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

/** One SSE message: `event: <name>` when named, then `data: <json or text>`, then a blank line. */
export function sendEvent(response: ServerResponse, data: unknown, event?: string): void {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${text}\n\n`);
}

/** A promise and its resolver, to hold a stream open until the test says so. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
