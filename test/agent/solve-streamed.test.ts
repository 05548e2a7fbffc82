/**
 * Eager solve() runs a solution's calls while the model writes it: a call starts once its JSON
 * has closed and what it reads exists; program order and approvals hold as for a whole plan; a
 * reply that turns out not to be a solution has its run halted, what ran is told to the model,
 * and nothing that ran runs again.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-events.js';
import { OpenAICompatibleProvider } from '../../src/agent/providers/openai.js';
import { solve } from '../../src/agent/plan-loop/solve.js';
import type { SolveOptions } from '../../src/agent/plan-loop/solve-types.js';
import type { Tool } from '../../src/index.js';
import { chatServer } from './chat-server.js';
import { DrivenProvider, lastUserText } from './driven-provider.js';
import { deferred } from '../deferred.js';

/** A shop: a read-only lookup, a slow read-only call, a charge, a refund that needs approval, a notice. */
function shop() {
  const log: string[] = [];
  const lookupStarted = deferred();
  const slowGate = deferred();
  const object = (properties: Record<string, unknown> = {}) => ({ type: 'object', properties });
  const tools: Tool[] = [
    {
      name: 'lookup',
      inputSchema: object({ sku: { type: 'string' } }),
      annotations: { readOnlyHint: true },
      execute: ({ sku }) => {
        log.push(`lookup ${String(sku)}`);
        lookupStarted.resolve();
        return { price: 10 };
      },
    },
    {
      name: 'slow',
      inputSchema: object(),
      annotations: { readOnlyHint: true },
      execute: async () => {
        log.push('slow started');
        await slowGate.promise;
        log.push('slow ended');
        return 'slow result';
      },
    },
    {
      name: 'charge',
      inputSchema: object({ amount: { type: 'number' } }),
      execute: ({ amount }) => {
        log.push(`charge ${String(amount)}`);
        return { id: `ch_${log.length}` };
      },
    },
    {
      name: 'refund',
      inputSchema: object({ amount: { type: 'number' } }),
      needsApproval: true,
      execute: ({ amount }) => {
        log.push(`refund ${String(amount)}`);
        return 'refunded';
      },
    },
    {
      name: 'notify',
      inputSchema: object({ text: { type: 'string' } }),
      execute: ({ text }) => {
        log.push(`notify ${String(text)}`);
        return 'sent';
      },
    },
  ];
  return { tools, log, lookupStarted, slowGate };
}

const call = (id: string, tool: string, args: Record<string, unknown> = {}, out?: string) =>
  JSON.stringify({ _id: id, _tool: tool, ...args, ...(out && { _outputPath: `†state.${out}` }) });

function solveWith(provider: DrivenProvider, tools: Tool[], options: SolveOptions = {}) {
  const events: AgentEvent[] = [];
  const result = solve({ sku: 'A1' }, options, { provider, tools: () => tools, emit: (e) => events.push(e) });
  return { result, events };
}

describe('eager solve() while the model writes', () => {
  it('starts a call before the reply has ended, over a real Chat Completions stream', async () => {
    const { tools, log, lookupStarted } = shop();
    const first = `{"calls": [${call('price', 'lookup', { sku: '†input.sku' }, 'price')},`;
    const rest = ` ${call('note', 'notify', { text: 'priced' })}], "output": null}`;
    // The server sends the first call, then waits until its tool has started before the rest:
    // read whole, the reply would never end.
    const server = await chatServer([
      { text: first + rest, piece: 7, hold: { at: first.length, until: lookupStarted.promise } },
      { text: '{"calls": [], "output": "priced and noted"}' },
    ]);
    try {
      const provider = new OpenAICompatibleProvider({
        model: 'test-model',
        baseURL: `${server.url}/v1`,
        requireApiKey: false,
        maxRetries: 0,
      });
      const result = await solve({ sku: 'A1' }, {}, { provider, tools: () => tools, emit: () => {} });
      expect(result.status).toBe('done');
      expect(result.output).toBe('priced and noted');
      expect(log).toEqual(['lookup A1', 'notify priced']);
      expect(result.state).toEqual({ price: { price: 10 } });
    } finally {
      await server.close();
    }
  });

  it('keeps effects in program order and asks for approval while the reply streams', async () => {
    const { tools, log } = shop();
    const provider = new DrivenProvider();
    const asked = deferred();
    const { result, events } = solveWith(provider, tools, {
      approve: (request) => {
        log.push(`asked ${request.kind === 'call' ? request.tool : request.kind}`);
        asked.resolve();
        return true;
      },
    });
    const reply = (await provider.asked(0)).say(`{"calls": [${call('r', 'refund', { amount: 5 })},`);
    // The refund is put to the person before the model has written anything after it.
    await asked.promise;
    reply.say(` ${call('n', 'notify', { text: 'refund done' })}], "output": "refunded"}`).end();
    const done = await result;
    expect(done.status).toBe('done');
    expect(log).toEqual(['asked refund', 'refund 5', 'notify refund done']);
    // Streamed, the run began before the solution was whole.
    const types = events.map((e) => e.type);
    expect(types.indexOf('run')).toBeLessThan(types.indexOf('solution'));
  });

  it('a reply that is not a solution: what ran is told to the model, and nothing of it runs again', async () => {
    const { tools, log } = shop();
    const provider = new DrivenProvider();
    const { result, events } = solveWith(provider, tools);
    const calls = `${call('c', 'charge', { amount: 20 }, 'charge')}, ${call('p', 'lookup', { sku: 'A1' }, 'price')}`;
    // "outcome" is not a key of a solution, and "output" is missing.
    (await provider.asked(0)).say(`{"calls": [${calls}], `).say('"outcome": null}').end();
    // The repair: the same calls, now with an output; then the answer.
    (await provider.asked(1)).say(`{"calls": [${calls}], "output": null}`).end();
    (await provider.asked(2)).say('{"calls": [], "output": "charged"}').end();
    const done = await result;
    expect(done.status).toBe('done');
    expect(log).toEqual(['charge 20', 'lookup A1']);
    const repair = lastUserText(provider.requests[1]!);
    expect(repair).toContain('started before it ended, and ran; they will not run again');
    expect(repair).toMatch(/call c \(charge\): succeeded\n {2}result: \{"id":"ch_1"\}/);
    expect(repair).toMatch(/call p \(lookup\): succeeded/);
    expect(done.runs).toHaveLength(2);
    expect(done.runs[0]!.calls.map((c) => c.status)).toEqual(['succeeded', 'succeeded']);
    // The repaired plan's calls took the results of the halted run instead of running.
    expect(done.runs[1]!.calls.map((c) => c.reused)).toEqual([true, true]);
    expect(done.state).toEqual({ charge: { id: 'ch_1' }, price: { price: 10 } });
    expect(events.filter((e) => e.type === 'halt')).toHaveLength(1);
  });

  it('a halted run: the call running ends, the call waiting never starts', async () => {
    const { tools, log, slowGate } = shop();
    const provider = new DrivenProvider();
    const { result, events } = solveWith(provider, tools, { concurrency: 1, maxRepairs: 0 });
    // Let the slow call end only once the loop is halting: the charge waits for its slot.
    const halting = events.push.bind(events);
    events.push = (...added: AgentEvent[]) => {
      if (added.some((e) => e.type === 'halt')) slowGate.resolve();
      return halting(...added);
    };
    (await provider.asked(0))
      .say(`{"calls": [${call('s', 'slow')}, ${call('c', 'charge', { amount: 1 })}]`)
      .say(', "output": null, }}')
      .end();
    const done = await result;
    expect(done.status).toBe('invalid');
    expect(log).toEqual(['slow started', 'slow ended']);
    const [halted] = done.runs;
    expect(halted!.calls.map((c) => [c.id, c.status, c.attempts])).toEqual([
      ['s', 'succeeded', 1],
      ['c', 'cancelled', 0],
    ]);
    expect(done.diagnostics.some((d) => d.code === 'E_JSON')).toBe(true);
  });

  it('a call whose own text is wrong never runs, nor does any call after it', async () => {
    const { tools, log } = shop();
    const provider = new DrivenProvider();
    const { result } = solveWith(provider, tools, { maxRepairs: 0 });
    (await provider.asked(0))
      .say(`{"calls": [${call('p', 'lookup', { sku: 'A1' })}, `)
      .say('{"_tool": "charge", "amount": 1, "amount": 2}, ')
      .say(`${call('n', 'notify', { text: 'x' })}], "output": null}`)
      .end();
    const done = await result;
    expect(done.status).toBe('invalid');
    expect(done.diagnostics.map((d) => d.code)).toContain('E_DUPLICATE_KEY');
    expect(log).toEqual(['lookup A1']);
  });

  it('the call budget holds call by call: the call past it is never handed on', async () => {
    const { tools, log, lookupStarted } = shop();
    const provider = new DrivenProvider();
    const { result } = solveWith(provider, tools, { budget: { maxCalls: 1 } });
    const reply = (await provider.asked(0)).say(`{"calls": [${call('p', 'lookup', { sku: 'A1' })}, `);
    await lookupStarted.promise;
    reply.say(`${call('n', 'notify', { text: 'over' })}], "output": null}`).end();
    const done = await result;
    expect(done.status).toBe('budget_exceeded');
    expect(log).toEqual(['lookup A1']);
    expect(done.budget.exceeded).toBe('maxCalls');
  });

  it('streamCalls: false reads the reply whole first, as a lazy loop does', async () => {
    const { tools, log } = shop();
    const provider = new DrivenProvider();
    const { result, events } = solveWith(provider, tools, { streamCalls: false });
    (await provider.asked(0)).say(`{"calls": [${call('p', 'lookup', { sku: 'A1' })}], "output": "x"}`).end();
    expect((await result).status).toBe('done');
    expect(log).toEqual(['lookup A1']);
    const types = events.map((e) => e.type);
    expect(types.indexOf('solution')).toBeLessThan(types.indexOf('run'));
  });

  it('under the strict schema, the nulls for left-out keys are dropped from each streamed call', async () => {
    const { tools, log } = shop();
    const provider = new DrivenProvider(true);
    const { result } = solveWith(provider, tools);
    const strictCall = '{"_id": null, "_tool": "lookup", "sku": "A1", "_outputPath": null, "_onError": null}';
    (await provider.asked(0)).say(`{"calls": [${strictCall}], "output": "looked up"}`).end();
    const done = await result;
    expect(done.status).toBe('done');
    expect(log).toEqual(['lookup A1']);
  });
});
