/**
 * Requests a server on the network must survive: bad JSON, huge and deep bodies, the wrong
 * content type, ids shaped like paths, unknown routes and methods, missing or wrong tokens,
 * a foreign Host, and event-stream clients that go away. Each is refused with a JSON error and
 * changes nothing.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/serve/index.js';
import { approvalsWhenPending, call, PLAN, runWhenEnded, serve, TOOLS } from './helpers.js';

describe('bad requests get a JSON error and change nothing', () => {
  it('bad JSON, the wrong content type, a body that is no object, unknown members', async () => {
    const server = await serve();
    const cases: [string | undefined, Record<string, string>, number, string][] = [
      ['{"plan": [', { 'content-type': 'application/json' }, 400, 'bad_json'],
      [JSON.stringify({ plan: PLAN }), { 'content-type': 'text/plain' }, 415, 'unsupported_media_type'],
      [JSON.stringify({ plan: PLAN }), {}, 415, 'unsupported_media_type'],
      ['[1, 2]', { 'content-type': 'application/json' }, 400, 'bad_request'],
      [
        JSON.stringify({ plan: PLAN, mood: 'lazy' }),
        { 'content-type': 'application/json' },
        400,
        'bad_request',
      ],
      [
        JSON.stringify({ plan: PLAN, mode: 'later' }),
        { 'content-type': 'application/json' },
        400,
        'bad_request',
      ],
      [JSON.stringify({ plan: PLAN, input: [] }), { 'content-type': 'application/json' }, 400, 'bad_request'],
      [JSON.stringify({}), { 'content-type': 'application/json' }, 400, 'bad_request'],
      [
        Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1'),
        { 'content-type': 'application/json' },
        400,
        'bad_json',
      ],
    ];
    for (const [body, headers, status, code] of cases) {
      const response = await fetch(`${server.url}/api/runs`, { method: 'POST', headers, body: body ?? null });
      const answer = (await response.json()) as { error: { code: string; message: string } };
      expect([response.status, answer.error.code]).toEqual([status, code]);
      expect(answer.error.message.length).toBeGreaterThan(10);
    }
    expect((await call(server, 'GET', '/api/runs')).body.runs).toEqual([]);
  });

  it('a body over maxBodyBytes is refused (413) before it is read whole, declared or chunked', async () => {
    const server = await serve({ maxBodyBytes: 1000 });
    const big = JSON.stringify({ plan: PLAN, state: { pad: 'x'.repeat(5000) } });
    const declared = await call(server, 'POST', '/api/runs', big);
    expect([declared.status, declared.body.error.code]).toEqual([413, 'body_too_large']);
    // Chunked, with no length given: cut off as soon as it passes the bound.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
        res.on('error', reject);
      });
      req.on('error', reject);
      for (let k = 0; k < 10; k++) req.write('x'.repeat(500));
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.code).toBe('body_too_large');
    expect((await call(server, 'GET', '/api/runs')).body.runs).toEqual([]);
  });

  it('a body nested past limits.maxDepth is refused without walking it recursively', async () => {
    const server = await serve({ maxBodyBytes: 4_000_000 });
    const deep = `{"plan": ${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`;
    const answer = await call(server, 'POST', '/api/runs', deep);
    expect([answer.status, answer.body.error.code]).toEqual([400, 'bad_json']);
    expect(answer.body.error.message).toMatch(/deep|depth|nest/i);
    expect((await call(server, 'GET', '/api/runs')).body.runs).toEqual([]);
  });

  it('ids shaped like paths, unknown routes and wrong methods: 404 and 405', async () => {
    const server = await serve();
    const { body } = await call(server, 'POST', '/api/runs', { plan: PLAN });
    await runWhenEnded(server, body.id);
    for (const path of [
      '/api/runs/..%2f..%2fetc%2fpasswd',
      '/api/runs/%2e%2e',
      '/api/runs/../approvals',
      `/api/runs/${body.id}/../../approvals`,
      '/api/runs/a%20b',
      `/api/runs/${'a'.repeat(101)}`,
      '/api/runs/',
      '/api/nothing',
      '/favicon.ico',
      `/api/runs?x=${'y'.repeat(5000)}`,
    ]) {
      const answer = await rawGet(server.url, path);
      expect([path, answer.status]).toEqual([path, 404]);
      expect(JSON.parse(answer.body).error.code).toBe('not_found');
    }
    const wrong = await call(server, 'DELETE', '/api/runs');
    expect([wrong.status, wrong.body.error.code, wrong.headers.get('allow')]).toEqual([
      405,
      'method_not_allowed',
      'POST, GET',
    ]);
    expect((await call(server, 'PUT', `/api/runs/${body.id}`)).status).toBe(405);
  });

  it('without a token, answers only requests addressed to a loopback host', async () => {
    const server = await serve();
    const foreign = await rawGet(server.url, '/api/runs', { host: 'attacker.example:80' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.code).toBe('forbidden_host');
    expect((await rawGet(server.url, '/', { host: 'attacker.example' })).status).toBe(403);
    expect((await rawGet(server.url, '/api/runs', { host: `localhost:${server.port}` })).status).toBe(200);
  });
});

describe('the token', () => {
  it('every /api/ request needs Authorization: Bearer <token>; the page itself does not', async () => {
    const server = await serve({ token: 's3cret-token' });
    expect(server.needsToken).toBe(true);
    const refusals: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: 's3cret-token' },
      { authorization: 'Bearer s3cret-token-and-more' },
    ];
    for (const headers of refusals) {
      const answer = await call(server, 'GET', '/api/runs', undefined, headers);
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('unauthorized');
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    }
    const refused = await call(server, 'POST', '/api/runs', { plan: PLAN });
    expect(refused.status).toBe(401);
    const auth = { authorization: 'Bearer s3cret-token' };
    expect((await call(server, 'GET', '/api/runs', undefined, auth)).body.runs).toEqual([]);
    const started = await call(server, 'POST', '/api/runs', { plan: PLAN }, auth);
    expect((await runWhenEnded(server, started.body.id, auth)).status).toBe('succeeded');
    const page = await call(server, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>planmode: approvals</title>');
  });

  it('refuses to listen beyond loopback without a token', async () => {
    await expect(startServer({ tools: TOOLS, host: '0.0.0.0' })).rejects.toThrow(TypeError);
    await expect(startServer({ tools: TOOLS, host: '0.0.0.0' })).rejects.toThrow(/needs a token/);
    await expect(startServer({ tools: TOOLS, hots: '::1' } as never)).rejects.toThrow(
      /unknown option "hots"/,
    );
    await expect(startServer({ tools: TOOLS, port: 70000 })).rejects.toThrow(TypeError);
  });
});

describe('event-stream clients that go away', () => {
  it('a client gone mid-stream is forgotten; the run and the server go on', async () => {
    const server = await serve();
    const { body } = await call(server, 'POST', '/api/runs', { plan: PLAN, mode: 'lazy' });
    const [request] = await approvalsWhenPending(server);
    // Two clients open the run's stream and the feed, read the first bytes, and go away.
    for (const path of [`/api/runs/${body.id}/events`, '/api/events']) {
      const controller = new AbortController();
      const response = await fetch(`${server.url}${path}`, { signal: controller.signal });
      await response.body!.getReader().read();
      controller.abort();
    }
    await call(server, 'POST', `/api/approvals/${request.id}`, { approved: true });
    const run = await runWhenEnded(server, body.id);
    expect(run.status).toBe('succeeded');
    expect((await call(server, 'GET', '/api/runs')).status).toBe(200);
  });
});

/** A GET with the path sent as is (fetch would normalise `..`), and headers of our own. */
function rawGet(
  url: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: hostname,
      port,
      path,
      method: 'GET',
      headers,
      setHost: headers.host === undefined,
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
