/** plan serve's runs over HTTP: start one, follow its events, read its status, calls and state. */
import { describe, expect, it } from 'vitest';
import { call, PLAN, readEvents, runWhenEnded, serve, type Json } from './helpers.js';

describe('POST /api/runs and GET /api/runs/:id', () => {
  it('starts an eager run, answers 201 {id}, and reports its calls and state once it ended', async () => {
    const server = await serve();
    const started = await call(server, 'POST', '/api/runs', { plan: PLAN });
    expect(started.status).toBe(201);
    expect(started.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(started.headers.get('location')).toBe(`/api/runs/${started.body.id}`);
    const run = await runWhenEnded(server, started.body.id);
    expect(run.status).toBe('succeeded');
    expect(run.state).toEqual({ weather: { city: 'Paris', sunny: true }, greeting: 'hello Paris' });
    expect(run.calls.map((c: Json) => [c.id, c.status, c.output])).toEqual([
      ['w', 'succeeded', { city: 'Paris', sunny: true }],
      ['g', 'succeeded', 'hello Paris'],
    ]);
    const list = await call(server, 'GET', '/api/runs');
    expect(list.body.runs).toEqual([
      expect.objectContaining({ id: started.body.id, status: 'succeeded', calls: 2 }),
    ]);
  });

  it('takes input and state, and a plan document with its own mode', async () => {
    const server = await serve();
    const plan = [{ _tool: 'greet', name: '†input.who', _outputPath: '†state.greeting' }];
    const started = await call(server, 'POST', '/api/runs', {
      plan,
      input: { who: 'Ada' },
      state: { kept: 1 },
    });
    const run = await runWhenEnded(server, started.body.id);
    expect(run.state).toEqual({ kept: 1, greeting: 'hello Ada' });
  });

  it("streams the run's events as Server-Sent Events: a replay of what happened, then the end", async () => {
    const server = await serve();
    const { body } = await call(server, 'POST', '/api/runs', { plan: PLAN });
    const events = await readEvents(server, `/api/runs/${body.id}/events`);
    const types = events.map((e) => e.event);
    expect(types[0]).toBe('run:start');
    expect(types).toContain('call:end');
    expect(types.at(-2)).toBe('run:end');
    expect(events.at(-1)).toEqual({ event: 'end', data: { status: 'succeeded' } });
    // Ids count the run's events: a client that reconnects with Last-Event-ID gets the rest.
    const ids = events.filter((e) => e.id !== undefined).map((e) => Number(e.id));
    expect(ids).toEqual(ids.map((_, k) => k));
    const rest = await readEvents(server, `/api/runs/${body.id}/events`, {
      'last-event-id': String(ids.at(-3)),
    });
    expect(rest.map((e) => e.event)).toEqual(events.slice(-3).map((e) => e.event));
  });

  it('keeps at most maxEventsPerRun events for a replay, and says how many it lacks', async () => {
    const server = await serve({ maxEventsPerRun: 2 });
    const { body } = await call(server, 'POST', '/api/runs', { plan: PLAN });
    await runWhenEnded(server, body.id);
    const events = await readEvents(server, `/api/runs/${body.id}/events`);
    expect(events[0]!.event).toBe('dropped');
    expect(events.filter((e) => e.id !== undefined)).toHaveLength(2);
    expect(events.at(-1)!.event).toBe('end');
  });

  it('refuses a plan with errors with its diagnostics (422), and starts nothing', async () => {
    const server = await serve();
    const answer = await call(server, 'POST', '/api/runs', {
      plan: [{ _tool: 'nope', _outputPath: '†state.x' }],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('invalid_plan');
    expect(answer.body.error.diagnostics.map((d: Json) => d.code)).toContain('E_UNKNOWN_TOOL');
    expect((await call(server, 'GET', '/api/runs')).body.runs).toEqual([]);
    // Whatever `plan` holds, it is the compile that judges it: a diagnostic, never a crash.
    for (const [plan, code] of [
      [null, 'E_SHAPE'],
      [5, 'E_SHAPE'],
      [{ type: 'plan' }, 'E_SHAPE'],
      ['[{"_tool": ', 'E_JSON'],
    ] as const) {
      const refused = await call(server, 'POST', '/api/runs', { plan });
      expect([refused.status, refused.body.error.diagnostics.map((d: Json) => d.code)]).toEqual([
        422,
        [code],
      ]);
    }
    expect((await call(server, 'GET', '/api/runs')).body.runs).toEqual([]);
  });

  it('refuses a new run while maxRuns runs are going on, and forgets the oldest that ended', async () => {
    const server = await serve({ maxRuns: 1 });
    const first = await call(server, 'POST', '/api/runs', { plan: PLAN });
    await runWhenEnded(server, first.body.id);
    const second = await call(server, 'POST', '/api/runs', { plan: PLAN, mode: 'lazy' });
    expect(second.status).toBe(201);
    expect((await call(server, 'GET', `/api/runs/${first.body.id}`)).status).toBe(404);
    const third = await call(server, 'POST', '/api/runs', { plan: PLAN });
    expect(third.status).toBe(503);
    expect(third.body.error.code).toBe('too_many_runs');
  });
});
