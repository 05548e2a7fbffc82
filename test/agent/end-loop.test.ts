/**
 * endLoop(): a tool ends the loop it runs in (gollem's ErrExitConversation). run() starts no
 * call after it and says which tool ended it; solve() (over a real Chat Completions server on
 * 127.0.0.1), PlanAgent.execute() and a todo plan stop after the step they are in, keep what
 * ran, and say which tool ended them and why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PlanAgent } from '../../src/agent/plan-agent.js';
import { OpenAICompatibleProvider } from '../../src/agent/providers/openai.js';
import { ScriptedProvider } from '../../src/agent/providers/scripted.js';
import { solve } from '../../src/agent/plan-loop/solve.js';
import { planTodos } from '../../src/agent/todo-plan/plan-todos.js';
import { TodoPlan } from '../../src/agent/todo-plan/todo-plan.js';
import { endLoop, isEndLoopSignal, run, type Tool } from '../../src/index.js';
import { chatServer, type ChatServer } from './chat-server.js';

function stopper(thrown: boolean, log: string[] = []): Tool {
  return {
    name: 'stop',
    inputSchema: { type: 'object', properties: { why: { type: 'string' } } },
    annotations: { readOnlyHint: true },
    execute: ({ why }) => {
      log.push('stop');
      const signal = endLoop(String(why));
      if (thrown) throw signal;
      return signal;
    },
  };
}

function note(log: string[]): Tool {
  return {
    name: 'note',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    annotations: { readOnlyHint: true },
    execute: ({ text }) => {
      log.push(String(text));
      return `noted ${String(text)}`;
    },
  };
}

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('endLoop in run()', () => {
  it.each([true, false])(
    'thrown=%s: the call succeeds, nothing starts after it, the result names the tool',
    async (thrown) => {
      const log: string[] = [];
      const result = await run(
        [
          { _id: 'first', _tool: 'note', text: 'a', _outputPath: '†state.a' },
          { _id: 'end', _tool: 'stop', why: '†state.a', _outputPath: '†state.b', _after: ['first'] },
          { _id: 'later', _tool: 'note', text: 'c', _after: ['end'] },
        ],
        { tools: [note(log), stopper(thrown, log)] },
      );
      expect(log).toEqual(['a', 'stop']);
      expect(result.endedBy).toEqual({ tool: 'stop', callId: 'end', reason: 'noted a' });
      expect(result.calls.map((c) => c.status)).toEqual(['succeeded', 'succeeded', 'cancelled']);
      expect(result.status).toBe('succeeded');
      expect(result.state).toEqual({ a: 'noted a' });
    },
  );

  it('is not retried, and recognised by its brand', async () => {
    let attempts = 0;
    const tool: Tool = {
      name: 'stop',
      retries: 3,
      execute: () => {
        attempts++;
        throw endLoop('enough');
      },
    };
    const result = await run([{ _id: 's', _tool: 'stop' }], { tools: [tool] });
    expect(attempts).toBe(1);
    expect(result.endedBy?.reason).toBe('enough');
    expect(isEndLoopSignal({ reason: 'x' })).toBe(false);
    expect(isEndLoopSignal(endLoop('x'))).toBe(true);
  });
});

describe('endLoop in the agent loops', () => {
  it('solve(): the model is not asked again; the run that ran is kept and the result says who ended it', async () => {
    const log: string[] = [];
    const solution = {
      calls: [
        { _id: 'n', _tool: 'note', text: 'hello', _outputPath: '†state.n' },
        { _id: 's', _tool: 'stop', why: 'the user is satisfied', _after: ['n'] },
      ],
      output: null,
    };
    server = await chatServer([
      { text: JSON.stringify(solution) },
      { text: '{"calls": [], "output": "never"}' },
    ]);
    const provider = new OpenAICompatibleProvider({
      model: 'test-model',
      baseURL: `${server.url}/v1`,
      requireApiKey: false,
      maxRetries: 0,
    });
    const result = await solve(
      'greet',
      {},
      { provider, tools: () => [note(log), stopper(false, log)], emit: () => {} },
    );
    expect(result.status).toBe('ended');
    expect(result.endedBy).toEqual({ tool: 'stop', callId: 's', reason: 'the user is satisfied' });
    expect(result.state).toEqual({ n: 'noted hello' });
    expect(result.runs).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
    expect(log).toEqual(['hello', 'stop']);
  });

  it('PlanAgent.execute(): the turn is answered whole, then no request follows', async () => {
    const log: string[] = [];
    const provider = new ScriptedProvider({
      turns: [
        {
          toolCalls: [
            { name: 'stop', arguments: { why: 'done here' } },
            { name: 'note', arguments: { text: 'same turn' } },
          ],
        },
        { text: 'never asked' },
      ],
    });
    const agent = new PlanAgent({ provider, tools: [note(log), stopper(true, log)] });
    agent.latch.enter();
    agent.latch.exit('go');
    const outcome = await agent.execute([{ role: 'user', content: 'work' }]);
    expect(outcome.status).toBe('ended');
    expect(outcome.endedBy).toMatchObject({ tool: 'stop', reason: 'done here' });
    expect(log).toEqual(['stop', 'same turn']);
    expect(provider.requests).toHaveLength(1);
    const results = outcome.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toBe("'stop' ended the loop: done here");
  });

  it('a todo plan: the todo completes, no reflection follows, the rest stay pending, and the snapshot keeps it', async () => {
    const log: string[] = [];
    const todos = { todos: ['t1', 't2'].map((id) => ({ id, description: `do ${id}`, intent: 'why' })) };
    const provider = new ScriptedProvider({
      turns: [
        { text: JSON.stringify(todos) },
        { toolCalls: [{ name: 'stop', arguments: { why: 'goal reached early' } }] },
        { text: 'never asked' },
      ],
    });
    const options = { provider, tools: [note(log), stopper(false, log)] };
    const plan = await planTodos('greet', options);
    const outcome = await plan.execute();
    expect(outcome.state).toBe('ended');
    expect(outcome.endedBy).toMatchObject({ tool: 'stop', reason: 'goal reached early' });
    expect(outcome.todos.map((t) => t.status)).toEqual(['completed', 'pending']);
    expect(outcome.iterations).toBe(0);
    expect(provider.requests).toHaveLength(2);
    const restored = TodoPlan.from(JSON.parse(JSON.stringify(plan.toJSON())), options);
    expect(restored.state).toBe('ended');
    expect(restored.endedBy).toEqual(plan.endedBy);
    expect(restored.finished).toBe(true);
  });
});
