/**
 * `plan serve` in this process: its first stdout line names the address, the server answers
 * there until SIGTERM (then exit 0), and what it refuses to start with exits 2.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { EXAMPLES } from '../fixtures/fixtures.js';
import { expectOneLineUsageError, planInProcess } from './in-process.js';

const WEATHER = join(EXAMPLES, 'weather-branch');

/** Starts `plan serve <args>` in this process; resolves with its first stdout line once written. */
/**
 * SIGTERM as the server hears it: its own listener, called directly. `process.emit('SIGTERM')`
 * would also call every other listener of the test process (vitest's worker, or one an earlier
 * test file's command left), and one of those may end the process.
 */
function terminate(before: ReadonlySet<unknown>): void {
  for (const listener of process.listeners('SIGTERM')) if (!before.has(listener)) listener('SIGTERM');
}

function startServe(args: readonly string[], env: Record<string, string> = {}) {
  const before = new Set(process.listeners('SIGTERM'));
  const out = { stdout: '', stderr: '' };
  let firstLine!: (line: string) => void;
  const listening = new Promise<string>((resolve) => (firstLine = resolve));
  const exit = main(['serve', ...args], {
    stdout: {
      write: (text: string) => {
        out.stdout += text;
        if (out.stdout.includes('\n')) firstLine(out.stdout.slice(0, out.stdout.indexOf('\n')));
      },
    },
    stderr: { isTTY: false, write: (text: string) => (out.stderr += text) },
    stdin: Readable.from(['']),
    env,
  });
  // A start that fails ends main before any line: the test sees its exit code instead.
  void exit.then(() => firstLine(''));
  return { listening, exit, out, terminate: () => terminate(before) };
}

describe('plan serve', () => {
  it('prints "listening on http://HOST:PORT" first, serves runs and approvals there, and stops on SIGTERM with exit 0', async () => {
    const serve = startServe([join(WEATHER, 'tools.mjs'), '--port', '0']);
    const line = await serve.listening;
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice('listening on '.length);
    expect(serve.out.stderr).toMatch(
      /^plan serve: \d+ tools; the approval page is http:\/\/127\.0\.0\.1:\d+\/; Ctrl-C stops\n$/,
    );

    const plan = JSON.parse(readFileSync(join(WEATHER, 'plan.json'), 'utf8'));
    const post = await fetch(`${url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plan, input: { city: 'Paris' }, mode: 'lazy' }),
    });
    expect(post.status).toBe(201);
    const { id } = (await post.json()) as { id: string };
    // The run's event stream says when the approval is asked (approval:requested).
    const events = await fetch(`${url}/api/runs/${id}/events`);
    const reader = events.body!.getReader();
    let seen = '';
    while (!seen.includes('approval:requested'))
      seen += new TextDecoder().decode((await reader.read()).value);
    const { approvals } = (await (await fetch(`${url}/api/approvals`)).json()) as {
      approvals: { id: string }[];
    };
    await fetch(`${url}/api/approvals/${approvals[0]!.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"approved": true}',
    });
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
    }
    const run = (await (await fetch(`${url}/api/runs/${id}`)).json()) as {
      status: string;
      state: { suggestion: unknown };
    };
    expect(run.status).toBe('succeeded');
    expect(run.state.suggestion).toBeDefined();

    serve.terminate();
    expect(await serve.exit).toBe(0);
    expect(serve.out.stderr).toContain('plan serve: SIGTERM: cancelling what runs, then stopping');
    await expect(fetch(`${url}/api/runs`)).rejects.toThrow();
  });

  it('takes the token from PLANMODE_TOKEN, and then listens beyond loopback', async () => {
    const serve = startServe([join(WEATHER, 'tools.mjs'), '--host', '0.0.0.0'], {
      PLANMODE_TOKEN: 'from-env',
    });
    const line = await serve.listening;
    expect(line).toMatch(/^listening on http:\/\/0\.0\.0\.0:\d+$/);
    const port = line.slice(line.lastIndexOf(':') + 1);
    expect((await fetch(`http://127.0.0.1:${port}/api/runs`)).status).toBe(401);
    const ok = await fetch(`http://127.0.0.1:${port}/api/runs`, {
      headers: { authorization: 'Bearer from-env' },
    });
    expect(ok.status).toBe(200);
    serve.terminate();
    expect(await serve.exit).toBe(0);
  });

  it('with --model, runs agents: a scripted model plans, its plan is approved over the API, and it answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'planmode-serve-cli-'));
    try {
      const turns = join(dir, 'turns.json');
      writeFileSync(
        turns,
        JSON.stringify([
          { toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: '1. nothing to do' } }] },
          { text: 'done' },
        ]),
      );
      const serve = startServe([
        join(WEATHER, 'tools.mjs'),
        '--model',
        `scripted:${turns}`,
        '--plans-dir',
        join(dir, 'plans'),
      ]);
      const url = (await serve.listening).slice('listening on '.length);
      expect(serve.out.stderr).toContain(`, agents on scripted:${turns};`);
      const post = await fetch(`${url}/api/agents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"task": "do nothing"}',
      });
      const { id } = (await post.json()) as { id: string };
      const feed = (await fetch(`${url}/api/events`)).body!.getReader();
      const read = async <T>(path: string) => (await (await fetch(`${url}${path}`)).json()) as T;
      let approvals = (await read<{ approvals: { id: string; markdown: string }[] }>('/api/approvals'))
        .approvals;
      while (approvals.length === 0) {
        await feed.read();
        approvals = (await read<{ approvals: { id: string; markdown: string }[] }>('/api/approvals'))
          .approvals;
      }
      expect(approvals[0]!.markdown).toBe('1. nothing to do');
      await fetch(`${url}/api/approvals/${approvals[0]!.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"approved": true}',
      });
      let agent = await read<{ status: string; text: string }>(`/api/agents/${id}`);
      while (agent.status !== 'answered') {
        await feed.read();
        agent = await read<{ status: string; text: string }>(`/api/agents/${id}`);
      }
      expect(agent.text).toBe('done');
      await feed.cancel();
      serve.terminate();
      expect(await serve.exit).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a host beyond loopback without a token, a tools file that is no module, a bad port: exit 2', async () => {
    const tools = join(WEATHER, 'tools.mjs');
    expectOneLineUsageError(
      await planInProcess(['serve', tools, '--host', '0.0.0.0']),
      /needs a token: give --token/,
    );
    expectOneLineUsageError(await planInProcess(['serve', join(WEATHER, 'tools.json')]), /is not a module/);
    expectOneLineUsageError(await planInProcess(['serve', tools, '--port', '70000']), /--port must be/);
    expectOneLineUsageError(await planInProcess(['serve', tools, '--port', 'x']), /--port must be/);
  });

  it('an address already in use is a usage error (exit 2)', async () => {
    const first = startServe([join(WEATHER, 'tools.mjs')]);
    const line = await first.listening;
    const port = line.slice(line.lastIndexOf(':') + 1);
    expectOneLineUsageError(
      await planInProcess(['serve', join(WEATHER, 'tools.mjs'), '--port', port]),
      /cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/,
    );
    first.terminate();
    expect(await first.exit).toBe(0);
  });
});
