/**
 * `plan run -` on a pipe: the first call starts while standard input is still open, and the
 * report (text and --json) is the one a whole plan gets; a text that cannot run early, or that
 * goes bad, gets exactly the diagnostics and exit code of the whole-read path.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

/** `echo` tells the test when it starts, through a hook the test sets on globalThis. */
const TOOLS = `
export const tools = [
  {
    name: 'echo',
    execute: async (args, ctx) => { globalThis.__planStarted?.(ctx.toolCallId); return args.v; },
  },
];
`;

const CALLS = [
  { _id: 'first', _tool: 'echo', v: 1, _outputPath: '†state.a' },
  { _id: 'second', _tool: 'echo', v: '†state.a', _outputPath: '†state.b' },
];
const PLAN_TEXT = JSON.stringify(CALLS, null, 2);

const { dir, cleanup } = tempDir({
  'tools.mjs': TOOLS,
  'plan.json': PLAN_TEXT,
  'solution.json': `{"calls": ${PLAN_TEXT}, "output": null}`,
});
afterAll(cleanup);

const hooks = globalThis as { __planStarted?: (id: string) => void };

/** A stdin that writes `head`, waits until the call `waitFor` has started, then writes `tail`. */
function gatedStdin(head: string, tail: string, waitFor: string) {
  const state = { tailWritten: false, startedBeforeTail: false };
  let started!: () => void;
  const gate = new Promise<void>((resolve) => (started = resolve));
  hooks.__planStarted = (id) => {
    if (id === waitFor) {
      state.startedBeforeTail = !state.tailWritten;
      started();
    }
  };
  async function* stdin(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(head);
    await gate;
    state.tailWritten = true;
    yield Buffer.from(tail);
  }
  return { stdin: stdin(), state };
}

async function runPiped(args: readonly string[], stdin: AsyncIterable<Uint8Array>) {
  const out = { stdout: '', stderr: '' };
  const previous = process.cwd();
  process.chdir(dir);
  try {
    const code = await main(['run', ...args], {
      stdout: { write: (text: string) => (out.stdout += text) },
      stderr: { isTTY: false, write: (text: string) => (out.stderr += text) },
      stdin,
      env: {},
    });
    return { code, ...out };
  } finally {
    process.chdir(previous);
  }
}

/** Timestamps and durations differ between two runs: everything else must not. */
function withoutTimes(json: string): unknown {
  const value = JSON.parse(json) as { calls: Record<string, unknown>[]; durationMs?: number };
  delete value.durationMs;
  for (const call of value.calls) {
    delete call.startedAt;
    delete call.endedAt;
  }
  return value;
}

describe('plan run - starts calls as they arrive', () => {
  it('starts the first call before standard input has ended', async () => {
    const cut = PLAN_TEXT.indexOf('},') + 2;
    const { stdin, state } = gatedStdin(PLAN_TEXT.slice(0, cut), PLAN_TEXT.slice(cut), 'first');
    const r = await runPiped(['-', '--tools', 'tools.mjs', '--json'], stdin);
    expect(state.startedBeforeTail).toBe(true);
    expect(r.code).toBe(0);
    const whole = await planInProcess(['run', '-', '--tools', 'tools.mjs', '--json'], PLAN_TEXT, {
      cwd: dir,
    });
    expect(whole.code).toBe(0);
    // The report is the one a whole plan gets.
    expect(withoutTimes(r.stdout)).toEqual(withoutTimes(whole.stdout));
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'succeeded', state: { a: 1, b: 1 } });
  });

  it('a solution and an eager plan message stream too; the text summary names every call', async () => {
    const solution = `{"calls": ${PLAN_TEXT}, "output": null}`;
    const cut = solution.indexOf('},') + 2;
    const piped = gatedStdin(solution.slice(0, cut), solution.slice(cut), 'first');
    const r = await runPiped(['-', '--tools', 'tools.mjs'], piped.stdin);
    expect(piped.state.startedBeforeTail).toBe(true);
    expect(r.code).toBe(0);
    const message = `{"type": "plan", "mode": "eager", "plan": ${PLAN_TEXT}}`;
    const at = message.indexOf('},') + 2;
    const again = gatedStdin(message.slice(0, at), message.slice(at), 'first');
    const m = await runPiped(['-', '--tools', 'tools.mjs'], again.stdin);
    expect(again.state.startedBeforeTail).toBe(true);
    expect(m.code).toBe(0);
    const whole = await planInProcess(['run', 'solution.json', '--tools', 'tools.mjs'], '', { cwd: dir });
    const summary = (text: string) =>
      text.replace(/\d+(\.\d+)?\s?m?s\b/g, '<time>').replaceAll('solution.json', '<stdin>');
    expect(summary(r.stderr)).toEqual(summary(whole.stderr));
  });

  it('a text that goes bad after a call started: the whole-read diagnostics and exit code', async () => {
    const bad = `${PLAN_TEXT.slice(0, PLAN_TEXT.indexOf('},') + 2)} {"_tool": }]`;
    const cut = bad.indexOf('},') + 2;
    const { stdin, state } = gatedStdin(bad.slice(0, cut), bad.slice(cut), 'first');
    const r = await runPiped(['-', '--tools', 'tools.mjs'], stdin);
    expect(state.startedBeforeTail).toBe(true);
    // Read whole: with --journal, a piped plan is read to its end before anything runs.
    const whole = await planInProcess(['run', '-', '--tools', 'tools.mjs', '--journal', 'j'], bad, {
      cwd: dir,
    });
    expect(r.code).toBe(whole.code);
    expect(r.code).toBe(1);
    // Exactly the whole-read report, then one line naming the call that had started.
    expect(r.stderr).toBe(
      `${whole.stderr}plan: 1 call of <stdin> had started before the plan was read whole: first\n`,
    );
  });

  it('text that cannot run early is read whole: the same output as before', async () => {
    for (const text of [
      '{"type": "plan", "mode": "lazy", "plan": []}',
      `{"type": "plan", "plan": ${PLAN_TEXT}}`,
      '[{"_tool": "nope"}', // a call that closed, but never starts: nothing ran, nothing to add
      'not json',
      '',
    ]) {
      hooks.__planStarted = undefined;
      const piped = await planInProcess(['run', '-', '--tools', 'tools.mjs', '--json'], text, { cwd: dir });
      const filed = await planInProcess(
        ['run', '-', '--tools', 'tools.mjs', '--json', '--journal', 'j'],
        text,
        {
          cwd: dir,
        },
      );
      expect(piped.code, text).toBe(filed.code);
      if (piped.code !== 0) expect(piped.stderr, text).toBe(filed.stderr);
    }
  });
});
