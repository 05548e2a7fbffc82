/**
 * Agents over HTTP, AgentScope's plan-mode admin API: a PlanAgent started with a task plans
 * (its exit_plan_mode is a pending approval), then carries the plan out; its latch, plan file
 * and todos can be read, and plan mode entered and exited (an exit asks for approval).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../src/agent/index.js';
import { approvalsWhenPending, call, serve, type Json } from './helpers.js';

let plansDir: string;
beforeEach(async () => {
  plansDir = await mkdtemp(join(tmpdir(), 'planmode-serve-agents-'));
});
afterEach(async () => {
  await rm(plansDir, { recursive: true, force: true });
});

/** The agent's state once `done` holds, read again on every change the feed announces. */
async function agentWhen(server: { url: string }, id: string, done: (agent: Json) => boolean): Promise<Json> {
  const controller = new AbortController();
  const feed = (await fetch(`${server.url}/api/events`, { signal: controller.signal })).body!.getReader();
  try {
    for (;;) {
      const agent = (await call(server as never, 'GET', `/api/agents/${id}`)).body;
      if (done(agent)) return agent;
      if ((await feed.read()).done) throw new Error('the feed ended');
    }
  } finally {
    controller.abort();
  }
}

describe('POST /api/agents and the plan-mode endpoints', () => {
  it('plans, asks for approval of its plan as a pending request, then carries it out', async () => {
    const provider = new ScriptedProvider({
      turns: [
        {
          toolCalls: [
            { name: 'plan_write', arguments: { content: '# Plan\n1. greet Ada' } },
            { name: 'todo_write', arguments: { todos: [{ content: 'greet Ada', status: 'pending' }] } },
          ],
        },
        { toolCalls: [{ name: 'exit_plan_mode', arguments: {} }] },
        { toolCalls: [{ name: 'greet', arguments: { name: 'Ada' } }] },
        { text: 'greeted Ada' },
      ],
    });
    const server = await serve({ provider, plansDir });
    const started = await call(server, 'POST', '/api/agents', { task: 'greet Ada' });
    expect(started.status).toBe(201);
    const id = started.body.id as string;
    const [request] = await approvalsWhenPending(server);
    expect(request).toMatchObject({ kind: 'plan', agent: id, markdown: '# Plan\n1. greet Ada' });
    const planning = (await call(server, 'GET', `/api/agents/${id}`)).body;
    expect(planning).toMatchObject({
      status: 'planning',
      latch: 'planning',
      planFile: { content: '# Plan\n1. greet Ada' },
      todos: [{ content: 'greet Ada', status: 'pending' }],
    });
    expect(planning.planFile.path).toBe(join(plansDir, `${id}.md`));
    await call(server, 'POST', `/api/approvals/${request.id}`, { approved: true });
    const done = await agentWhen(server, id, (a) => a.status === 'answered');
    expect(done).toMatchObject({ latch: 'executing', plan: '# Plan\n1. greet Ada', text: 'greeted Ada' });
    expect((await call(server, 'GET', '/api/agents')).body.agents).toEqual([
      expect.objectContaining({ id, status: 'answered', task: 'greet Ada' }),
    ]);
  });

  /** An agent whose plain-text plan was approved, and which then answered: its latch executing. */
  async function answeredAgent(): Promise<{ server: Awaited<ReturnType<typeof serve>>; id: string }> {
    const provider = new ScriptedProvider({ turns: [{ text: '1. look' }, { text: 'looked' }] });
    const server = await serve({ provider, plansDir });
    const { body } = await call(server, 'POST', '/api/agents', { task: 'look around' });
    // A plain-text answer while planning is the plan: asked about like exit_plan_mode's.
    const [request] = await approvalsWhenPending(server);
    expect(request).toMatchObject({ kind: 'plan', agent: body.id, markdown: '1. look' });
    await call(server, 'POST', `/api/approvals/${request.id}`, { approved: true });
    await agentWhen(server, body.id, (a) => a.status === 'answered');
    return { server, id: body.id };
  }

  it('enter puts the latch in planning; exit asks for approval, and a yes moves it to executing', async () => {
    const { server, id } = await answeredAgent();
    const notPlanning = await call(server, 'POST', `/api/agents/${id}/plan-mode/exit`, {});
    expect([notPlanning.status, notPlanning.body.error?.code]).toEqual([409, 'conflict']);

    const entered = await call(server, 'POST', `/api/agents/${id}/plan-mode/enter`);
    expect(entered.body).toEqual({ latch: 'planning', changed: true });
    const exit = await call(server, 'POST', `/api/agents/${id}/plan-mode/exit`, { plan: '1. do it' });
    expect(exit.status).toBe(202);
    const [request] = await approvalsWhenPending(server);
    expect(request).toMatchObject({ id: exit.body.approval, kind: 'plan', agent: id, markdown: '1. do it' });
    expect((await call(server, 'GET', `/api/agents/${id}`)).body.latch).toBe('planning');
    await call(server, 'POST', `/api/approvals/${request.id}`, { approved: true });
    const after = await agentWhen(server, id, (a) => a.latch === 'executing');
    expect(after.plan).toBe('1. do it');
  });

  it('a rejected exit leaves the latch planning', async () => {
    const { server, id } = await answeredAgent();
    await call(server, 'POST', `/api/agents/${id}/plan-mode/enter`);
    const exit = await call(server, 'POST', `/api/agents/${id}/plan-mode/exit`, { plan: 'p' });
    const answered = await call(server, 'POST', `/api/approvals/${exit.body.approval}`, {
      approved: false,
      feedback: 'no',
    });
    expect(answered.status).toBe(200);
    expect((await call(server, 'GET', `/api/agents/${id}`)).body.latch).toBe('planning');
  });

  it('bad agent requests are refused; without a model the agent endpoints answer no_model', async () => {
    const provider = new ScriptedProvider({ turns: [] });
    const server = await serve({ provider, plansDir });
    for (const bad of [{}, { task: '' }, { task: 3 }, { task: 't', extra: 1 }]) {
      const answer = await call(server, 'POST', '/api/agents', bad);
      expect([answer.status, answer.body.error.code]).toEqual([400, 'bad_request']);
    }
    expect((await call(server, 'GET', '/api/agents/unknown')).status).toBe(404);
    expect((await call(server, 'GET', '/api/agents')).body.agents).toEqual([]);
    const without = await serve();
    const refused = await call(without, 'POST', '/api/agents', { task: 'x' });
    expect([refused.status, refused.body.error.code]).toEqual([404, 'no_model']);
  });
});
