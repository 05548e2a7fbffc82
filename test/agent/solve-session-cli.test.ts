/**
 * `plan agent --session FILE` as a real process (the built `plan`) against a Chat Completions
 * server on loopback: killed with SIGKILL between two turns (the moment the server receives the
 * second turn's request, the first turn's snapshot has been saved), then run again with the
 * same file, it resumes from that turn, runs no side effect twice, and ends as a run that was
 * never interrupted.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { builtModule } from '../built.js';
import { tempDir } from '../cli/helpers.js';
import { fileSession } from '../../src/agent/plan-loop/index.js';
import { type PlanProcess, spawnPlan } from '../cli/spawned.js';
import { type ChatServer, chatServer, type Play } from './chat-server.js';

const TOOLS = `
import { appendFileSync } from 'node:fs';
export const tools = [
  {
    name: 'pay',
    description: 'pays someone',
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'string' }, amount: { type: 'number' } },
      required: ['to', 'amount'],
    },
    execute: ({ to, amount }) => {
      appendFileSync(process.env.PAY_LOG, to + ' ' + amount + '\\n');
      return 'receipt for ' + to;
    },
  },
  {
    name: 'lookup',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
    execute: () => 42,
  },
];
`;
const temp = tempDir({ 'tools.mjs': TOOLS });
afterAll(() => temp.cleanup());

const servers: ChatServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const text = (value: unknown): Play => ({ text: JSON.stringify(value) });
const pay = { _tool: 'pay', to: 'bob', amount: 5, _outputPath: '†state.receipt' };
/** Turn 1 pays; turn 2 lists the payment again and looks up a price; turn 3 answers. */
const TURNS: Play[] = [
  text({ calls: [pay], output: null }),
  text({ calls: [pay, { _tool: 'lookup', _outputPath: '†state.price' }], output: null }),
  text({ calls: [], output: 'paid bob 5 at 42' }),
];

function agent(server: ChatServer, session: string, log: string): PlanProcess {
  const args = ['agent', 'pay bob', '--tools', join(temp.dir, 'tools.mjs'), '--model', 'openai:test-model'];
  return spawnPlan([...args, '--base-url', `${server.url}/v1`, '--session', session], {
    cwd: temp.dir,
    env: { PAY_LOG: log, OPENAI_API_KEY: 'test-key' },
  });
}

const payments = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8') : '');

describe('plan agent --session: killed between turns, resumed', () => {
  it('repeats no side effect and ends as an uninterrupted run, saying it resumed from turn 1', async () => {
    // An uninterrupted run, for comparison.
    const whole = await chatServer(TURNS);
    servers.push(whole);
    const wholeLog = join(temp.dir, 'whole.log');
    const uninterrupted = agent(whole, join(temp.dir, 'whole.json'), wholeLog);
    expect(await uninterrupted.exited).toBe(0);
    expect(payments(wholeLog)).toBe('bob 5\n');

    // Killed the moment it asks for turn 2: turn 1's snapshot was saved before that request.
    const log = join(temp.dir, 'killed.log');
    const session = join(temp.dir, 'killed.json');
    const first = await chatServer((index) => {
      if (index === 0) return TURNS[0]!;
      victim.child.kill('SIGKILL');
      return { silent: true };
    });
    servers.push(first);
    // Declared after the server: its plays run once requests come, by then it is set.
    const victim = agent(first, session, log);
    expect(await victim.exited).toBeNull();
    expect(victim.child.signalCode).toBe('SIGKILL');
    expect(payments(log)).toBe('bob 5\n');
    expect(JSON.parse(readFileSync(session, 'utf8'))).toMatchObject({ turn: 1, ended: null });

    // Resumed: the server answers from turn 2 on.
    const rest = await chatServer(TURNS.slice(1));
    servers.push(rest);
    const resumed = agent(rest, session, log);
    expect(await resumed.exited).toBe(0);
    expect(resumed.stderr).toMatch(
      /^plan: resumed the session .*killed\.json from turn 1: going on with turn 2$/m,
    );
    expect(payments(log)).toBe('bob 5\n');
    expect(rest.requests).toHaveLength(2);
    expect(resumed.stdout).toBe(uninterrupted.stdout);
    expect(resumed.stdout).toBe('paid bob 5 at 42\n');
    const saved = JSON.parse(readFileSync(session, 'utf8')) as Record<string, unknown>;
    const wholeSaved = JSON.parse(readFileSync(join(temp.dir, 'whole.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(saved.state).toEqual(wholeSaved.state);
    expect(saved).toMatchObject({ turn: 3, ended: { status: 'done', output: 'paid bob 5 at 42' } });
  });

  it('a session file that is not a snapshot: exit 2, naming the file and what is wrong', async () => {
    const server = await chatServer(TURNS);
    servers.push(server);
    const bad = join(temp.dir, 'bad.json');
    writeFileSync(bad, '{"version": 1, "tools": [');
    const run = agent(server, bad, join(temp.dir, 'bad.log'));
    expect(await run.exited).toBe(2);
    expect(run.stderr).toMatch(
      /--session: the session file '.*bad\.json' cannot be resumed from: the file is empty or truncated/,
    );
    expect(server.requests).toHaveLength(0);
  });
});

/** Saves snapshots of a few megabytes one after another, printing `saved <turn>` after each. */
const SAVER = `
import { fileSession } from ${JSON.stringify(builtModule('src/agent/plan-loop/index.js'))};
const session = fileSession(process.argv[2]);
const big = 'x'.repeat(4_000_000);
const spent = { calls: 0, turns: 0, tokens: 0, wallMs: 0, largestPlan: 0 };
const context = { plan: [], progress: null, failures: [], note: null };
for (let turn = 1; ; turn++) {
  await session.save({
    version: 1, tools: [], input: {}, state: { big, turn }, turn, spent, history: [], context,
    sideEffects: [], ended: null,
  });
  process.stdout.write('saved ' + turn + '\\n');
}
`;

describe('fileSession: a process killed while it writes', () => {
  it('leaves the last whole snapshot: the write goes to a temporary file renamed over it', async () => {
    writeFileSync(join(temp.dir, 'saver.mjs'), SAVER);
    const path = join(temp.dir, 'saving.json');
    const child = spawn(process.execPath, [join(temp.dir, 'saver.mjs'), path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Killed while the second snapshot is being written: once the first is saved, at the first
    // change seen to the file or beside it (inotify, no polling).
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const watcher = watch(temp.dir, (_, name) => {
      if (out.includes('saved 1\n') && name?.startsWith('saving.json')) {
        child.kill('SIGKILL');
      }
    });
    await new Promise((resolve) => child.on('close', resolve));
    watcher.close();
    expect(child.signalCode).toBe('SIGKILL');
    const saved = Number(/saved (\d+)\n(?![\s\S]*saved)/.exec(out)![1]);
    const snapshot = await fileSession(path).load();
    expect(snapshot!.turn).toBeGreaterThanOrEqual(saved);
    expect(snapshot!.state).toEqual({ big: 'x'.repeat(4_000_000), turn: snapshot!.turn });
    // A temporary file the kill interrupted may be left beside it; never a half-written snapshot.
    expect(
      readdirSync(temp.dir).filter((name) => name.startsWith('saving.json') && !name.endsWith('.tmp')),
    ).toEqual(['saving.json']);
  });
});
