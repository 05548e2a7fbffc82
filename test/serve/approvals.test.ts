/**
 * Approvals over HTTP: a lazy run's plan and a needsApproval call wait as pending requests
 * (the plan with its dry run, the call with its resolved arguments) until answered once.
 */
import { describe, expect, it } from 'vitest';
import { approvalsWhenPending, call, PLAN, runWhenEnded, serve, type Json } from './helpers.js';

describe('GET /api/approvals and POST /api/approvals/:id', () => {
  it("holds a lazy run's plan with its dry run until approved; then the run finishes", async () => {
    const server = await serve();
    const { body } = await call(server, 'POST', '/api/runs', { plan: PLAN, mode: 'lazy' });
    const [request] = await approvalsWhenPending(server);
    expect(request).toMatchObject({
      kind: 'plan',
      run: body.id,
      reason: 'a lazy plan runs only once approved',
      mode: 'lazy',
      document: PLAN,
      calls: [
        { id: 'w', tool: 'weather', args: { city: 'Paris' } },
        { id: 'g', tool: 'greet', args: { name: '†state.weather.city' } },
      ],
      report: `/api/approvals/${request.id}/report`,
    });
    expect(request.simulation).toMatchObject({
      criticalPath: ['w', 'g'],
      maxParallelism: 1,
      argumentErrors: [],
    });
    expect(request.simulation.scenarios[0].run).toEqual(['w', 'g']);
    expect((await call(server, 'GET', `/api/runs/${body.id}`)).body.status).toBe('awaiting_approval');

    const report = await call(server, 'GET', request.report);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toMatch(/^text\/html/);
    expect(report.body).toContain('<svg');

    const answered = await call(server, 'POST', `/api/approvals/${request.id}`, { approved: true });
    expect(answered).toMatchObject({ status: 200, body: { id: request.id, approved: true, edited: false } });
    const run = await runWhenEnded(server, body.id);
    expect(run.status).toBe('succeeded');
    expect(run.state.greeting).toBe('hello Paris');
    expect((await call(server, 'GET', '/api/approvals')).body.approvals).toEqual([]);

    const again = await call(server, 'POST', `/api/approvals/${request.id}`, { approved: false });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_answered');
    const unknown = await call(server, 'POST', '/api/approvals/nope', { approved: true });
    expect(unknown.status).toBe(404);
  });

  it('a no with feedback rejects the run', async () => {
    const server = await serve();
    const { body } = await call(server, 'POST', '/api/runs', { plan: PLAN, mode: 'lazy' });
    const [request] = await approvalsWhenPending(server);
    await call(server, 'POST', `/api/approvals/${request.id}`, { approved: false, feedback: 'not today' });
    const run = await runWhenEnded(server, body.id);
    expect(run.status).toBe('rejected');
    expect(run.calls.every((c: Json) => c.status === 'rejected')).toBe(true);
  });

  it("holds a needsApproval call with its resolved arguments; a no's feedback is its error", async () => {
    const server = await serve();
    const plan = [
      { _id: 'w', _tool: 'weather', city: 'Oslo', _outputPath: '†state.weather' },
      { _id: 'r', _tool: 'refund', amount: 12.5, _after: ['w'], _outputPath: '†state.refund' },
    ];
    const { body } = await call(server, 'POST', '/api/runs', { plan });
    const [request] = await approvalsWhenPending(server);
    expect(request).toMatchObject({
      kind: 'call',
      run: body.id,
      call: 'r',
      tool: 'refund',
      args: { amount: 12.5 },
      reason: "tool 'refund' needs approval",
      description: 'Pays money back.',
    });
    expect(request.report).toBeUndefined();
    const edit = await call(server, 'POST', `/api/approvals/${request.id}`, { approved: true, plan: [] });
    expect(edit.status).toBe(400);
    await call(server, 'POST', `/api/approvals/${request.id}`, { approved: false, feedback: 'too much' });
    const run = await runWhenEnded(server, body.id);
    expect(run.calls[1]).toMatchObject({
      id: 'r',
      status: 'rejected',
      error: { message: expect.stringContaining('too much') },
    });
  });

  it('an edited plan runs instead; an edit with errors is asked about again with its diagnostics', async () => {
    const server = await serve();
    const { body } = await call(server, 'POST', '/api/runs', { plan: PLAN, mode: 'lazy' });
    const [first] = await approvalsWhenPending(server);
    const broken = [{ _tool: 'nope', _outputPath: '†state.x' }];
    await call(server, 'POST', `/api/approvals/${first.id}`, { approved: true, plan: broken });
    const [second] = await approvalsWhenPending(server);
    expect(second.id).not.toBe(first.id);
    expect(second.edit.attempt).toBe(1);
    expect(second.edit.diagnostics.map((d: Json) => d.code)).toContain('E_UNKNOWN_TOOL');
    const edited = [{ _id: 'only', _tool: 'greet', name: 'Grace', _outputPath: '†state.greeting' }];
    const answer = await call(server, 'POST', `/api/approvals/${second.id}`, {
      approved: true,
      plan: edited,
    });
    expect(answer.body.edited).toBe(true);
    const run = await runWhenEnded(server, body.id);
    expect(run).toMatchObject({
      status: 'succeeded',
      edited: true,
      editedPlan: edited,
      state: { greeting: 'hello Grace' },
    });
    expect(run.calls.map((c: Json) => c.id)).toEqual(['only']);
  });

  it('a bad answer answers nothing: the request stays pending', async () => {
    const server = await serve();
    await call(server, 'POST', '/api/runs', { plan: PLAN, mode: 'lazy' });
    const [request] = await approvalsWhenPending(server);
    for (const bad of [
      {},
      { approved: 'yes' },
      { approved: false, feedback: 3 },
      { approved: false, plan: PLAN },
      [],
    ]) {
      const answer = await call(server, 'POST', `/api/approvals/${request.id}`, bad);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('bad_request');
    }
    expect((await call(server, 'GET', '/api/approvals')).body.approvals.map((a: Json) => a.id)).toEqual([
      request.id,
    ]);
  });

  it('closing the server cancels its runs (a pending plan is answered no) and ends their event streams', async () => {
    const server = await serve();
    const { body } = await call(server, 'POST', '/api/runs', { plan: PLAN, mode: 'lazy' });
    await approvalsWhenPending(server);
    const stream = await fetch(`${server.url}/api/runs/${body.id}/events`);
    await server.close();
    const text = await stream.text();
    expect(text).toMatch(/event: end\ndata: \{"status":"cancelled"\}/);
  });
});
