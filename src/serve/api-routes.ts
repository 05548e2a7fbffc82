/** The JSON API of runs and approvals, and the two event streams, as routes. */
import type { ServerResponse } from 'node:http';
import type { ApprovalDesk } from './approval-desk.js';
import type { Feed } from './feed.js';
import { asObject, type BodyBounds, readJsonBody } from './http-body.js';
import { HttpError, sendJson } from './http-error.js';
import type { Router } from './router.js';
import type { RunRegistry } from './run-registry.js';
import { lastEventId, SseStream } from './sse.js';

export interface ApiParts {
  readonly runs: RunRegistry;
  readonly desk: ApprovalDesk;
  readonly feed: Feed;
  readonly bounds: BodyBounds;
}

export function addApiRoutes(router: Router, parts: ApiParts): void {
  const { runs, desk, feed, bounds } = parts;
  router
    .on('POST', '/api/runs', async (request, response) => {
      const record = runs.start(await readJsonBody(request, bounds));
      sendJson(
        response,
        201,
        { id: record.id, status: record.state },
        { location: `/api/runs/${record.id}` },
      );
    })
    .on('GET', '/api/runs', (_request, response) => sendJson(response, 200, { runs: runs.list() }))
    .on('GET', '/api/runs/:id', (_request, response, [id]) => sendJson(response, 200, runs.get(id!).detail()))
    .on('GET', '/api/runs/:id/events', (request, response, [id]) => {
      const record = runs.get(id!);
      const stream = new SseStream(response, () => record.unsubscribe(stream));
      record.subscribe(stream, lastEventId(request));
    })
    .on('GET', '/api/approvals', (_request, response) => sendJson(response, 200, { approvals: desk.list() }))
    .on('GET', '/api/approvals/:id/report', (_request, response, [id]) => {
      const held = desk.get(id!);
      if (!held.report)
        throw new HttpError(
          404,
          'not_found',
          `approval ${id} has no dry-run report (only a run's plan has one)`,
        );
      sendHtml(response, held.report());
    })
    .on('POST', '/api/approvals/:id', async (request, response, [id]) => {
      // Looked up first: an unknown or answered id is a 404 or 409 whatever the body.
      desk.get(id!);
      const body = asObject(await readJsonBody(request, bounds), 'POST /api/approvals/:id');
      sendJson(response, 200, { id, ...desk.answer(id!, body) });
    })
    .on('GET', '/api/events', (request, response) => {
      const stream = new SseStream(response, () => feed.remove(stream));
      feed.add(stream);
    });
}

/**
 * An HTML answer: the page itself, or a report. Scripts and styles only from the page itself;
 * no framing by other sites; no network from the page but to this server.
 */
export function sendHtml(response: ServerResponse, html: string): void {
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'content-security-policy':
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; frame-src 'self'; frame-ancestors 'self'",
    'referrer-policy': 'no-referrer',
  });
  response.end(html);
}
