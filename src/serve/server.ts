/**
 * startServer(): the plan server over node:http. Every request goes through the gate (token or
 * loopback Host), then the router; whatever a handler throws becomes a JSON error, and an error
 * that is not a refusal is a 500 that says nothing of the server's insides.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApprovalDesk } from './approval-desk.js';
import { addApiRoutes, sendHtml } from './api-routes.js';
import { AgentRegistry, addAgentRoutes } from './agent-routes.js';
import { Gate } from './auth.js';
import { Feed } from './feed.js';
import { HttpError, sendError } from './http-error.js';
import { approvalPage } from './page.js';
import { Router } from './router.js';
import { RunRegistry } from './run-registry.js';
import { resolveServeOptions, type ServeOptions } from './serve-options.js';

/** A server listening: where, and how to stop it. */
export interface PlanServer {
  /** `http://HOST:PORT`, with an IPv6 host in brackets. */
  readonly url: string;
  readonly host: string;
  /** The port it listens on (the one picked, when `port` was 0). */
  readonly port: number;
  /** True when `/api/` requests need `Authorization: Bearer <token>`. */
  readonly needsToken: boolean;
  /**
   * Stops: no new connection; runs and agents are cancelled, pending approvals answered no,
   * event streams ended; resolves once every run has ended.
   */
  close(): Promise<void>;
}

/**
 * Starts the plan server and resolves once it listens.
 * @throws {TypeError} for a bad option, and for a host that is not loopback without a token; the listen error (EADDRINUSE, ...) when it cannot listen.
 */
export async function startServer(options: ServeOptions): Promise<PlanServer> {
  const o = resolveServeOptions(options);
  const feed = new Feed();
  const desk = new ApprovalDesk({ maxAnswered: o.maxRuns * 16, onChange: () => feed.notify('approvals') });
  const runs = new RunRegistry(o, desk, () => feed.notify('runs'));
  const agents = new AgentRegistry(o, desk, () => feed.notify('agents'));
  const bounds = { maxBytes: o.maxBodyBytes, limits: o.limits };
  const gate = new Gate(o.token);
  const router = new Router();
  const page = approvalPage({ agents: o.provider !== undefined });
  router.on('GET', '/', (_request, response) => sendHtml(response, page));
  addApiRoutes(router, { runs, desk, feed, bounds });
  addAgentRoutes(router, { agents, bounds });

  const server = createServer((request, response) => {
    void handle(request, response);
  });
  // A request that never finishes sending its head or body is cut off.
  server.headersTimeout = 30_000;
  server.requestTimeout = 60_000;
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    try {
      const target = request.url ?? '/';
      // The page is no secret; what it shows is read from /api/, with the token.
      if (target.startsWith('/api/') || !gate.needsToken) gate.check(request);
      const { handler, params } = router.match(request.method ?? 'GET', target);
      await handler(request, response, params);
    } catch (error) {
      sendError(
        response,
        error instanceof HttpError ? error : new HttpError(500, 'internal', 'the server failed to answer'),
      );
    }
  };
  await listen(server, o.port, o.host);
  const port = (server.address() as AddressInfo).port;
  const host = o.host.includes(':') && !o.host.startsWith('[') ? `[${o.host}]` : o.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    host: o.host,
    port,
    needsToken: gate.needsToken,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        feed.close();
        await Promise.all([runs.close(), agents.close()]);
        server.closeAllConnections();
        await stopped;
      })()),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once('error', failed);
    server.listen(port, host.startsWith('[') ? host.slice(1, -1) : host, () => {
      server.removeListener('error', failed);
      resolve();
    });
  });
}
