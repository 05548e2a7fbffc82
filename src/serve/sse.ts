/**
 * One Server-Sent Events response: `id`, `event` and `data` lines per message. A client that
 * reads slower than messages come is cut off once this much is waiting for it, so one stuck
 * reader cannot hold the server's memory; it can reconnect with `Last-Event-ID` and replay.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bytes queued for one client before it is cut off. */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

export class SseStream {
  readonly #response: ServerResponse;
  #closed = false;
  readonly #onClose: () => void;

  constructor(response: ServerResponse, onClose: () => void) {
    this.#response = response;
    this.#onClose = onClose;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    // Sent at once, so the client knows the stream is open before the first event.
    response.write(': planmode\n\n');
    // The client went away (closed the tab, aborted the fetch): the response closes with its
    // connection, and nothing more is written to it.
    const gone = () => this.close();
    response.on('close', gone);
    response.on('error', gone);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Sends one message; `data` is one line of JSON. */
  send(event: string, data: string, id?: number): void {
    if (this.#closed) return;
    if (this.#response.writableLength > MAX_QUEUED_BYTES) {
      this.#response.destroy();
      this.close();
      return;
    }
    this.#response.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`);
  }

  /** Ends the response (the client sees the stream end) and forgets it. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#response.writableEnded) this.#response.end();
    this.#onClose();
  }
}

/** The `Last-Event-ID` a reconnecting client sends: replay starts after it. */
export function lastEventId(request: IncomingMessage): number {
  const header = request.headers['last-event-id'];
  const value = typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : -1;
  return value;
}
