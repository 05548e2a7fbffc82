/**
 * A todo plan's `history` option (gollem's WithPlanHistory) and its `onMessage` hook (gollem's
 * plan message hook): typed messages, each tagged with the todo it belongs to, in order.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../src/agent/providers/scripted.js';
import { planTodos } from '../../src/agent/todo-plan/plan-todos.js';
import type { TodoPlanMessage } from '../../src/agent/todo-plan/todo-plan-messages.js';
import type { Message } from '../../src/agent/model.js';
import type { Tool } from '../../src/index.js';

const search: Tool = {
  name: 'search',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  annotations: { readOnlyHint: true },
  execute: ({ q }) => `hits for ${String(q)}`,
};
const todos = { todos: [{ id: 't1', description: 'look it up', intent: 'facts' }] };
const history: Message[] = [
  { role: 'user', content: 'Earlier: we agreed on metric units.' },
  { role: 'assistant', content: 'Noted: metric.' },
];

describe('planTodos history', () => {
  it('every request of the plan starts from the given messages, after the system messages', async () => {
    const provider = new ScriptedProvider({
      turns: [
        { text: JSON.stringify(todos) },
        { text: 'done' },
        { text: JSON.stringify({ action: 'finish', changes: [], result: 'ok' }) },
      ],
    });
    const given = structuredClone(history);
    const plan = await planTodos('measure', { provider, tools: [search], history: given });
    (given[0] as { content: string }).content = 'changed afterwards';
    await plan.execute();
    expect(provider.requests).toHaveLength(3);
    for (const request of provider.requests) {
      const firstOther = request.messages.findIndex((m) => m.role !== 'system');
      expect(request.messages.slice(firstOther, firstOther + 2)).toEqual(history);
    }
  });

  it('refuses a history that is not messages, naming the place', async () => {
    const provider = new ScriptedProvider({ turns: [] });
    await expect(
      planTodos('x', { provider, tools: [search], history: [{ role: 'robot', content: 'hi' }] as never }),
    ).rejects.toThrow(/planTodos: history\[0\]\.role must be system, user, assistant or tool/);
    await expect(planTodos('x', { provider, tools: [search], history: 'hi' as never })).rejects.toThrow(
      /planTodos: history must be an array of messages/,
    );
  });
});

describe('onMessage hook', () => {
  it('hands system, response, action and thought messages, each tagged with its todo, in order', async () => {
    const provider = new ScriptedProvider({
      turns: [
        { text: JSON.stringify(todos) },
        { text: 'Let me search.', toolCalls: [{ name: 'search', arguments: { q: 'tides' } }] },
        { text: 'Tides are twice a day.' },
        { text: JSON.stringify({ action: 'finish', changes: [], result: 'twice daily' }) },
      ],
    });
    const messages: TodoPlanMessage[] = [];
    const plan = await planTodos('tides', {
      provider,
      tools: [search],
      hooks: { onMessage: (_plan, message) => void messages.push(message) },
    });
    await plan.execute();
    const brief = messages.map((m) => `${m.type} ${m.todo ?? '-'}`);
    expect(brief).toEqual([
      'system -',
      'system t1',
      'response t1',
      'action t1',
      'response t1',
      'system t1',
      'thought t1',
      'system -',
    ]);
    expect(messages[0]).toEqual({ type: 'system', todo: null, text: 'todos created: t1' });
    expect(messages[2]).toEqual({ type: 'response', todo: 't1', text: 'Let me search.' });
    expect(messages[3]).toMatchObject({
      type: 'action',
      todo: 't1',
      call: { name: 'search', arguments: { q: 'tides' } },
      outcome: 'succeeded',
      result: 'hits for tides',
    });
    expect(messages[6]).toMatchObject({ type: 'thought', todo: 't1', action: 'finish' });
    expect(messages[7]).toEqual({ type: 'system', todo: null, text: 'plan completed' });
  });

  it('a throw from onMessage stops the plan, as any hook', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: JSON.stringify(todos) }, { text: 'done' }] });
    const plan = await planTodos('x', {
      provider,
      tools: [search],
      hooks: {
        onMessage: (_plan, message) => {
          if (message.type === 'response') throw new Error('stop here');
        },
      },
    });
    await expect(plan.execute()).rejects.toThrow('stop here');
  });
});
