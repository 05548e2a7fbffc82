/**
 * Sessions of the plan loop: a snapshot after every turn, a loop resumed from one goes on at
 * the next turn with what it had spent and the side effects it had run (none runs again), and
 * a snapshot is refused, by name, when its tools changed or its file is bad.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PlanAgent } from '../../src/agent/plan-agent.js';
import { ScriptedProvider } from '../../src/agent/providers/scripted.js';
import { solve } from '../../src/agent/plan-loop/solve.js';
import {
  definitionDigest,
  fileSession,
  type SolveSession,
  type SolveSnapshot,
} from '../../src/agent/plan-loop/index.js';
import { isSessionError, SessionError } from '../../src/errors.js';
import type { Tool } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'planmode-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function toolsCounting(paid: { count: number }, description = 'pays someone'): Tool[] {
  return [
    {
      name: 'pay',
      description,
      inputSchema: {
        type: 'object',
        properties: { to: { type: 'string' }, amount: { type: 'number' } },
        required: ['to', 'amount'],
      },
      execute: ({ to }) => {
        paid.count++;
        return `receipt for ${String(to)}`;
      },
    },
    {
      name: 'lookup',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', properties: {} },
      execute: () => 42,
    },
  ];
}

const json = (value: unknown) => ({ text: JSON.stringify(value) });
const pay = { _tool: 'pay', to: 'bob', amount: 5, _outputPath: '†state.receipt' };
/** Turn 1 pays; turn 2 lists the payment again and looks up; turn 3 answers. */
const TURNS = [
  json({ calls: [pay], output: null }),
  json({ calls: [pay, { _tool: 'lookup', _outputPath: '†state.price' }], output: null }),
  json({ calls: [], output: 'paid bob' }),
];

function memorySession(load?: unknown): SolveSession & { saved: SolveSnapshot[] } {
  const saved: SolveSnapshot[] = [];
  return {
    saved,
    save: (snapshot) => void saved.push(structuredClone(snapshot)),
    ...(load !== undefined && { load: () => load }),
  };
}

async function solveWith(turns: typeof TURNS, tools: Tool[], session?: SolveSession) {
  const provider = new ScriptedProvider({ turns });
  const result = await solve(
    'pay bob',
    { ...(session && { session }) },
    { provider, tools: () => tools, emit: () => undefined },
  );
  return { result, provider };
}

describe('solve({ session }): a snapshot after every turn', () => {
  it('saves after each turn that goes on, and once when the loop ends, with every field', async () => {
    const paid = { count: 0 };
    const tools = toolsCounting(paid);
    const session = memorySession();
    const { result } = await solveWith(TURNS, tools, session);
    expect(result).toMatchObject({ status: 'done', output: 'paid bob', iterations: 3 });
    expect(session.saved.map((s) => [s.turn, s.ended])).toEqual([
      [1, null],
      [2, null],
      [3, { status: 'done', output: 'paid bob' }],
    ]);
    const first = session.saved[0]!;
    expect(first.version).toBe(1);
    expect(first.tools).toEqual(tools.map((tool) => ({ name: tool.name, digest: definitionDigest(tool) })));
    expect(first.tools[0]!.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(first.state).toEqual({ receipt: 'receipt for bob' });
    expect(first.input).toEqual({ task: 'pay bob' });
    expect(first.spent).toMatchObject({ calls: 1, turns: 1 });
    expect(first.context.plan).toEqual([pay]);
    expect(first.context.progress?.[0]).toMatchObject({ tool: 'pay', status: 'succeeded' });
    expect(first.sideEffects).toEqual([
      { tool: 'pay', args: { to: 'bob', amount: 5 }, output: 'receipt for bob', branch: null },
    ]);
    expect(first.history).toEqual([]);
    expect(paid.count).toBe(1);
  });
});

describe('PlanAgent.solve({ session })', () => {
  it('saves after every turn and resumes, through the agent and its policy', async () => {
    const paid = { count: 0 };
    const first = memorySession();
    const agent = (turns: typeof TURNS) =>
      new PlanAgent({ provider: new ScriptedProvider({ turns }), tools: toolsCounting(paid) });
    await agent(TURNS).solve('pay bob', { session: first });
    expect(first.saved.map((s) => s.turn)).toEqual([1, 2, 3]);
    const resumed = await agent(TURNS.slice(1)).solve('pay bob', { session: memorySession(first.saved[0]) });
    expect(resumed).toMatchObject({ status: 'done', output: 'paid bob', iterations: 3 });
    expect(paid.count).toBe(1);
  });
});

describe('solve({ session }): resuming', () => {
  it('goes on at the next turn with the budget spent carried, runs no side effect again, and ends as an uninterrupted loop', async () => {
    const whole = memorySession();
    const uninterrupted = await solveWith(TURNS, toolsCounting({ count: 0 }), whole);

    const paid = { count: 0 };
    const firstTurn = memorySession();
    // The process "stops" after turn 1: only its first snapshot is kept.
    await solveWith(TURNS, toolsCounting(paid), firstTurn);
    const afterTurnOne = JSON.parse(JSON.stringify(firstTurn.saved[0])) as unknown;
    paid.count = 1; // what the stopped process did: turn 1 paid once

    const resumedSession = memorySession(afterTurnOne);
    const { result, provider } = await solveWith(TURNS.slice(1), toolsCounting(paid), resumedSession);
    expect(paid.count).toBe(1);
    expect(provider.requests).toHaveLength(2);
    expect(result.status).toBe('done');
    expect(result.output).toBe(uninterrupted.result.output);
    expect(result.state).toEqual(uninterrupted.result.state);
    expect(result.iterations).toBe(3);
    expect(result.budget.spent).toMatchObject({
      calls: uninterrupted.result.budget.spent.calls,
      turns: uninterrupted.result.budget.spent.turns,
    });
    expect(result.runs[0]!.calls[0]).toMatchObject({ tool: 'pay', reused: true });
    expect(resumedSession.saved.map((s) => s.turn)).toEqual([2, 3]);
  });

  it('a snapshot of a loop that ended gives its result at once, asking nothing', async () => {
    const whole = memorySession();
    await solveWith(TURNS, toolsCounting({ count: 0 }), whole);
    const { result, provider } = await solveWith(
      [],
      toolsCounting({ count: 0 }),
      memorySession(whole.saved[2]),
    );
    expect(provider.requests).toHaveLength(0);
    expect(result).toMatchObject({ status: 'done', output: 'paid bob', iterations: 3 });
  });

  it('refuses tools that changed or are gone, naming the tool, unless allowToolChanges', async () => {
    const whole = memorySession();
    await solveWith(TURNS, toolsCounting({ count: 0 }), whole);
    const snapshot = whole.saved[0];

    const changed = solveWith(
      TURNS.slice(1),
      toolsCounting({ count: 0 }, 'pays someone, twice'),
      memorySession(snapshot),
    );
    await expect(changed).rejects.toThrow(SessionError);
    await expect(changed).rejects.toMatchObject({ kind: 'tool-changed', tool: 'pay' });
    await expect(changed).rejects.toThrow(
      /the definition of tool 'pay' .* changed since the snapshot was saved/,
    );

    const gone = solveWith(TURNS.slice(1), toolsCounting({ count: 0 }).slice(1), memorySession(snapshot));
    await expect(gone).rejects.toMatchObject({ kind: 'tool-missing', tool: 'pay' });
    await expect(gone).rejects.toThrow(/its tool 'pay' is not offered now/);

    const paid = { count: 0 };
    const allowed = await solveWith(TURNS.slice(1), toolsCounting(paid, 'pays someone, twice'), {
      ...memorySession(snapshot),
      allowToolChanges: true,
    });
    expect(allowed.result.status).toBe('done');
    expect(paid.count).toBe(0);
  });
});

describe('fileSession: an untrusted file, written atomically', () => {
  async function snapshotText(): Promise<string> {
    const whole = memorySession();
    await solveWith(TURNS, toolsCounting({ count: 0 }), whole);
    return JSON.stringify(whole.saved[0]);
  }

  it('writes through a temporary file renamed over the old one, and reads it back', async () => {
    const path = join(dir, 'round-trip.json');
    const session = fileSession(path);
    const paid = { count: 0 };
    await solveWith(
      TURNS.slice(0, 1).concat([json({ calls: [], output: 'stop' })]),
      toolsCounting(paid),
      session,
    );
    expect(readdirSync(dir).filter((name) => name.startsWith('round-trip.json.'))).toEqual([]);
    const back = await fileSession(path).load();
    expect(back).toMatchObject({ turn: 2, ended: { status: 'done', output: 'stop' } });
  });

  it.each([
    ['truncated', (text: string) => text.slice(0, text.length / 2), /the file is empty or truncated/, ''],
    ['empty', () => '', /the file is empty or truncated/, ''],
    ['not JSON', () => '{"version": 1, nope}', /the file is (not JSON|empty or truncated)/, ''],
    [
      'a field of the wrong type',
      (text: string) => text.replace('"turn":1', '"turn":"one"'),
      /its field \/turn must be integer/,
      '/turn',
    ],
    [
      'an unknown key',
      (text: string) => text.replace('{"version":1', '{"version":1,"extra":true'),
      /has an unknown key 'extra'/,
      '',
    ],
    [
      'another version',
      (text: string) => text.replace('"version":1', '"version":2'),
      /\/version must be 1/,
      '/version',
    ],
    [
      'nested too deep',
      (text: string) => text.replace('"state":{', `"state":{"deep":${'['.repeat(200)}${']'.repeat(200)},`),
      /nests deeper than/,
      '/state/deep',
    ],
  ])('%s: a SessionError naming the file, the place and how to fix it', async (_, edit, message, pointer) => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, edit(await snapshotText()));
    const load = fileSession(path).load();
    await expect(load).rejects.toSatisfy(isSessionError);
    await expect(load).rejects.toMatchObject({ kind: 'bad-snapshot', path });
    await expect(load).rejects.toThrow(message);
    await expect(load).rejects.toThrow(/restore it from a copy, or delete it to start a new session/);
    if (pointer) await expect(load).rejects.toMatchObject({ pointer: expect.stringContaining(pointer) });
  });

  it('a file over maxBytes is refused before it is parsed', async () => {
    const path = join(dir, 'large.json');
    writeFileSync(path, await snapshotText());
    const load = fileSession(path, { maxBytes: 100 }).load();
    await expect(load).rejects.toThrow(/the file is larger than 100 bytes \(maxBytes\)/);
  });

  it('no file: the loop starts afresh', async () => {
    expect(await fileSession(join(dir, 'none.json')).load()).toBeUndefined();
  });
});
