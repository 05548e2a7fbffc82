/**
 * A model's native tool calls start as soon as each one's arguments are complete, while the
 * model is still writing the rest of its turn: one at a time, in the model's order, with every
 * rule of plan mode and approval as before. Against loopback servers speaking Chat Completions
 * and the Messages API, which hold the rest of a turn back until the agent has done something
 * (a tool started, a result was reported): if the agent waited for the whole turn, these tests
 * would wait forever.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  isTooManyToolCallsError,
  type Message,
  type ModelToolCall,
  PlanAgent,
  ScriptedProvider,
} from '../../src/agent/index.js';
import { isModelProviderError, type Tool } from '../../src/index.js';
import { type FakeServer, gate, startServer } from './providers/fake-server.js';
import { sendParts, type Wire, type WireCall, WIRES } from './tool-call-wires.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A `step` tool that records each start and end, and a gate per call to hold it. */
function steps() {
  const log: string[] = [];
  const started = new Map<number, ReturnType<typeof gate>>();
  const holds = new Map<number, ReturnType<typeof gate>>();
  const startedGate = (n: number) => started.get(n) ?? started.set(n, gate()).get(n)!;
  const tool: Tool = {
    name: 'step',
    description: 'One step',
    inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    execute: async ({ n }) => {
      const step = n as number;
      log.push(`start ${step}`);
      startedGate(step).open();
      await holds.get(step)?.promise;
      log.push(`end ${step}`);
      return `done ${step}`;
    },
  };
  return {
    tool,
    log,
    started: (n: number) => startedGate(n).promise,
    hold: (n: number) => holds.set(n, gate()).get(n)!,
  };
}

const call = (n: number, name = 'step'): WireCall => ({ id: `call_${n}`, name, arguments: { n } });

/** What the agent reported, in order, in short. */
function brief(events: readonly AgentEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.type === 'tool-call') return [`call ${e.call.id}`];
    if (e.type === 'tool-result') return [`result ${e.call.id} ${e.outcome}`];
    if (e.type === 'turn-failed') return [`turn-failed ran=${ids(e.ran)} notRun=${ids(e.notRun)}`];
    return e.type === 'error' ? ['error'] : [];
  });
}

const ids = (calls: readonly ModelToolCall[]) => calls.map((c) => c.id).join(',') || '-';

describe.each(WIRES)('native tool calls start while the model writes ($name)', (wire: Wire) => {
  it('three calls: the first runs before the server sends the rest; effects keep the order; the transcript is whole', async () => {
    const tools = steps();
    const calls = [call(1), call(2), call(3)];
    let requests = 0;
    server = await startServer(async (_request, response, closed) => {
      if (++requests > 1) return sendParts(response, closed, [wire.textTurn('all done')], []);
      // The rest of the turn is sent only once the first call's tool has started.
      await sendParts(response, closed, wire.toolTurn(calls, [1]), [tools.started(1)]);
    });
    const events: AgentEvent[] = [];
    const agent = new PlanAgent({
      provider: wire.provider(server.url),
      tools: [tools.tool],
      onEvent: (e) => events.push(e),
    });
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    const outcome = await agent.execute(messages);
    expect(outcome).toMatchObject({ status: 'answered', text: 'all done' });
    expect(tools.log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(brief(events)).toEqual([
      'call call_1',
      'result call_1 succeeded',
      'call call_2',
      'result call_2 succeeded',
      'call call_3',
      'result call_3 succeeded',
    ]);
    // The assistant turn (all three calls) comes before its results, one per call, in order.
    expect(messages.map((m) => (m.role === 'tool' ? `tool ${m.toolCallId}` : m.role))).toEqual([
      'user',
      'assistant',
      'tool call_1',
      'tool call_2',
      'tool call_3',
      'assistant',
    ]);
    expect(messages[1]).toMatchObject({ toolCalls: calls.map(({ id, name }) => ({ id, name })) });
  }, 15_000);

  it('a turn cut by maxToolCallsPerTurn after call 1 ran: call 1 ran once and is reported, no later call runs', async () => {
    const tools = steps();
    const calls = [call(1), call(2), call(3)];
    server = await startServer(async (_request, response, closed) => {
      // Call 1 is complete before the server waits; what follows passes the bound of 1.
      await sendParts(response, closed, wire.toolTurn(calls, [1]), [tools.started(1)]);
    });
    const events: AgentEvent[] = [];
    const agent = new PlanAgent({
      provider: wire.provider(server.url),
      tools: [tools.tool],
      maxToolCallsPerTurn: 1,
      onEvent: (e) => events.push(e),
    });
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    const error = await agent.execute(messages).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isTooManyToolCallsError(error)).toBe(true);
    expect(tools.log).toEqual(['start 1', 'end 1']);
    expect(brief(events)).toEqual([
      'call call_1',
      'result call_1 succeeded',
      'turn-failed ran=call_1 notRun=-',
      'error',
    ]);
    const failed = events.find((e) => e.type === 'turn-failed');
    expect(failed).toMatchObject({ phase: 'execute', error, ran: [{ id: 'call_1', name: 'step' }] });
    // The conversation says what ran: the call and its result, a valid transcript to go on from.
    expect(messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'step', arguments: { n: 1 } }] },
      { role: 'tool', toolCallId: 'call_1', name: 'step', content: 'done 1' },
    ]);
  }, 15_000);

  it('an abort mid-stream: the call being answered is awaited, the calls waiting behind it never start', async () => {
    const tools = steps();
    const release = tools.hold(1);
    const calls = [call(1), call(2), call(3)];
    const cut = gate();
    server = await startServer(async (_request, response, closed) => {
      void closed.then(cut.open);
      // Calls 1 and 2 are complete; then the server holds until the client goes away.
      await sendParts(response, closed, wire.toolTurn(calls, [2]), [closed]);
    });
    const events: AgentEvent[] = [];
    const secondArrived = gate();
    const controller = new AbortController();
    const agent = new PlanAgent({
      provider: wire.provider(server.url),
      tools: [tools.tool],
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'tool-call' && e.call.id === 'call_2') secondArrived.open();
      },
    });
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    let settled = false;
    const outcome = agent.execute(messages).then(
      () => ((settled = true), null),
      (e: unknown) => ((settled = true), e),
    );
    await Promise.all([tools.started(1), secondArrived.promise]);
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    // The request is gone, and yet the turn has not ended: call 1 is still being answered.
    await cut.promise;
    expect(settled).toBe(false);
    release.open();
    expect(await outcome).toBe(reason);
    expect(tools.log).toEqual(['start 1', 'end 1']);
    expect(brief(events)).toEqual([
      'call call_1',
      'call call_2',
      'result call_1 succeeded',
      'turn-failed ran=call_1 notRun=call_2',
      'error',
    ]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  }, 15_000);
});

describe.each(WIRES)('plan mode and approvals hold per call, mid-stream ($name)', (wire: Wire) => {
  it('plan(): a mutating call that starts while the model writes is still denied', async () => {
    const reads: number[] = [];
    const writes: number[] = [];
    const schema = { type: 'object', properties: { n: { type: 'number' } } } as const;
    const tools: Tool[] = [
      { name: 'read', inputSchema: schema, execute: ({ n }) => (reads.push(n as number), 'text') },
      { name: 'write', inputSchema: schema, execute: ({ n }) => (writes.push(n as number), 'ok') },
    ];
    const writeAnswered = gate();
    const calls = [
      call(1, 'read'),
      call(2, 'write'),
      { id: 'call_3', name: 'exit_plan', arguments: { plan: '1. write' } },
    ];
    server = await startServer(async (_request, response, closed) => {
      // The plan is sent only once the write has been answered, while the turn was still open.
      await sendParts(response, closed, wire.toolTurn(calls, [2]), [writeAnswered.promise]);
    });
    const events: AgentEvent[] = [];
    const agent = new PlanAgent({
      provider: wire.provider(server.url),
      tools,
      permissions: { readOnly: ['read'] },
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'tool-result' && e.call.id === 'call_2') writeAnswered.open();
      },
    });
    const messages: Message[] = [{ role: 'user', content: 'change it' }];
    const outcome = await agent.plan(messages);
    expect(outcome).toMatchObject({ status: 'planned', plan: '1. write', submittedWith: 'exit_plan' });
    expect(reads).toEqual([1]);
    expect(writes).toEqual([]);
    expect(brief(events)).toEqual([
      'call call_1',
      'result call_1 succeeded',
      'call call_2',
      'result call_2 denied',
      'call call_3',
      'result call_3 plan-submitted',
    ]);
    const denied = events.find((e) => e.type === 'tool-result' && e.call.id === 'call_2');
    expect(denied).toMatchObject({ denial: { tool: 'write' } });
    expect(messages.find((m) => m.role === 'tool' && m.toolCallId === 'call_2')).toMatchObject({
      role: 'tool',
      toolCallId: 'call_2',
      isError: true,
      content: expect.stringContaining("Plan mode denies mutating tool 'write'"),
    });
  }, 15_000);

  it('execute(): approval prompts come one at a time, in order, while the model writes', async () => {
    const tools = steps();
    const deploy: Tool = { ...tools.tool, name: 'deploy', needsApproval: true };
    const secondArrived = gate();
    const firstAsked = gate();
    const asked: string[] = [];
    const calls = [call(1, 'deploy'), call(2, 'deploy')];
    let requests = 0;
    server = await startServer(async (_request, response, closed) => {
      if (++requests > 1) return sendParts(response, closed, [wire.textTurn('done')], []);
      await sendParts(response, closed, wire.toolTurn(calls, [1]), [firstAsked.promise]);
    });
    const events: AgentEvent[] = [];
    const agent = new PlanAgent({
      provider: wire.provider(server.url),
      tools: [deploy],
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'tool-call' && e.call.id === 'call_2') secondArrived.open();
      },
      approveTool: async (request) => {
        asked.push(`ask ${request.call}`);
        if (request.call !== 'call_1') return true;
        firstAsked.open();
        // Call 2 arrives while this prompt is open, and is not asked about until it is answered.
        await secondArrived.promise;
        asked.push(`no ${request.call}`);
        return false;
      },
    });
    const messages: Message[] = [{ role: 'user', content: 'ship it' }];
    await agent.execute(messages);
    expect(asked).toEqual(['ask call_1', 'no call_1', 'ask call_2']);
    expect(tools.log).toEqual(['start 2', 'end 2']);
    expect(brief(events).filter((line) => line.startsWith('result'))).toEqual([
      'result call_1 rejected',
      'result call_2 succeeded',
    ]);
  }, 15_000);
});

describe('the turn that ends the stream and the calls it streamed', () => {
  const step = (n: number): ModelToolCall => ({ id: `call_${n}`, name: 'step', arguments: { n } });
  const done = (...calls: ModelToolCall[]) => ({
    type: 'done' as const,
    turn: {
      message: { role: 'assistant' as const, content: '', toolCalls: calls },
      stopReason: 'tool_calls' as const,
    },
  });

  it('calls the provider did not stream start at the end, after the streamed ones, in order', async () => {
    const tools = steps();
    const provider = new ScriptedProvider({
      turns: [[{ type: 'tool-call', call: step(1) }, done(step(1), step(2))], { text: 'ok' }],
    });
    const agent = new PlanAgent({ provider, tools: [tools.tool] });
    await agent.execute([{ role: 'user', content: 'go' }]);
    expect(tools.log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('a turn whose calls are not the ones it streamed is refused after what ran is answered', async () => {
    const tools = steps();
    const provider = new ScriptedProvider({
      turns: [[{ type: 'tool-call', call: step(1) }, done(step(2))]],
    });
    const events: AgentEvent[] = [];
    const agent = new PlanAgent({ provider, tools: [tools.tool], onEvent: (e) => events.push(e) });
    const error = await agent.execute([{ role: 'user', content: 'go' }]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isModelProviderError(error)).toBe(true);
    expect((error as Error).message).toMatch(/tool call 1 is not the call it streamed \(step, id call_1\)/);
    expect(tools.log).toEqual(['start 1', 'end 1']);
    expect(brief(events)).toContain('turn-failed ran=call_1 notRun=-');
  });
});
