/** SPEC 9: calls that arrive as a stream (the model still writing) start as soon as they can. */
import { describe, expect, it } from 'vitest';
import { type RunResult, run, type Tool } from '../../src/index.js';

type Args = Record<string, unknown>;

function statuses(result: RunResult): Record<string, string> {
  return Object.fromEntries(result.calls.map((c) => [c.id, c.status]));
}

/** A tool that records when it starts and returns `fn(args)`. */
function tool(name: string, started: string[], fn: (args: Args) => unknown = (a) => a.v): Tool {
  return {
    name,
    execute: async (args, ctx) => {
      started.push(ctx.toolCallId);
      return fn(args as Args);
    },
  };
}

describe('streamed plans', () => {
  it('a ready call is dispatched before the stream ends', async () => {
    const started: string[] = [];
    let firstStarted!: () => void;
    const firstStartedPromise = new Promise<void>((resolve) => (firstStarted = resolve));
    const echo: Tool = {
      name: 'echo',
      execute: async (args: Args, ctx) => {
        started.push(ctx.toolCallId);
        if (ctx.toolCallId === 'first') firstStarted();
        return args.v;
      },
    };
    let streamEnded = false;
    async function* calls() {
      yield { _id: 'first', _tool: 'echo', v: 1, _outputPath: '†state.a' };
      // The stream goes on only once the first call has started: a runner that waited for the
      // end of the stream would never get here.
      await firstStartedPromise;
      yield { _id: 'second', _tool: 'echo', v: '†state.a', _outputPath: '†state.b' };
      streamEnded = true;
    }
    const result = await run(calls(), { tools: [echo] });
    expect(streamEnded).toBe(true);
    expect(started).toEqual(['first', 'second']);
    expect(result.state).toEqual({ a: 1, b: 1 });
    expect(result.status).toBe('succeeded');
  });

  it('a read no writer has claimed yet waits for the end of the stream, then binds forward', async () => {
    const started: string[] = [];
    const echo = tool('echo', started);
    let released = false;
    async function* calls() {
      yield { _id: 'reader', _tool: 'echo', v: '†state.later', _outputPath: '†state.out' };
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(started).toEqual([]); // the reader waits: its writer may still come
      released = true;
      yield { _id: 'writer', _tool: 'echo', v: 7, _outputPath: '†state.later' };
    }
    const result = await run(calls(), { tools: [echo] });
    expect(released).toBe(true);
    expect(started).toEqual(['writer', 'reader']);
    expect(result.state).toEqual({ later: 7, out: 7 });
  });

  it('a call that arrives invalid never runs, is reported, and what depends on it is upstream_failed', async () => {
    const started: string[] = [];
    const echo = tool('echo', started);
    async function* calls() {
      yield { _id: 'ok', _tool: 'echo', v: 1, _outputPath: '†state.a' };
      yield { _id: 'bad', _tool: 'ecoh', v: 2, _outputPath: '†state.b' };
      yield { _id: 'after', _tool: 'echo', v: '†state.b', _outputPath: '†state.c' };
    }
    const result = await run(calls(), { tools: [echo] });
    expect(statuses(result)).toEqual({ ok: 'succeeded', bad: 'failed', after: 'upstream_failed' });
    expect(result.calls[1]!.error).toMatchObject({ code: 'E_UNKNOWN_TOOL' });
    expect(started).toEqual(['ok']);
    const diagnostic = result.diagnostics.find((d) => d.code === 'E_UNKNOWN_TOOL')!;
    expect(diagnostic).toMatchObject({ call: 'bad', pointer: '/1/_tool', hint: 'did you mean "echo"?' });
    expect(result.status).toBe('failed');
  });

  it('a read nothing ever writes fails at the end of the stream; a cycle fails its calls', async () => {
    const started: string[] = [];
    const echo = tool('echo', started);
    async function* calls() {
      yield { _id: 'orphan', _tool: 'echo', v: '†state.never', _outputPath: '†state.o' };
      yield { _id: 'x', _tool: 'echo', v: '†state.y', _outputPath: '†state.x' };
      yield { _id: 'y', _tool: 'echo', v: '†state.x', _outputPath: '†state.y' };
      yield { _id: 'free', _tool: 'echo', v: 1, _outputPath: '†state.f' };
    }
    const result = await run(calls(), { tools: [echo] });
    expect(statuses(result)).toEqual({
      orphan: 'failed',
      x: 'failed',
      y: 'upstream_failed',
      free: 'succeeded',
    });
    expect(result.calls[0]!.error).toMatchObject({ code: 'E_UNRESOLVED' });
    expect(result.diagnostics.map((d) => d.code).sort()).toEqual(['E_CYCLE', 'E_UNRESOLVED']);
    expect(started).toEqual(['free']);
  });

  it('in lazy mode the stream is taken in whole and approved before anything runs', async () => {
    const started: string[] = [];
    const echo = tool('echo', started);
    async function* calls() {
      yield { _tool: 'echo', v: 1, _outputPath: '†state.a' };
    }
    const rejected = await run(calls(), { tools: [echo], mode: 'lazy', approve: () => false });
    expect(rejected.status).toBe('rejected');
    expect(started).toEqual([]);
    const approved = await run(calls(), { tools: [echo], mode: 'lazy', approve: () => true });
    expect(approved.state).toEqual({ a: 1 });
  });

  it('a || alternative nothing ever writes: a warning at the end, and the call runs with the alternative that exists', async () => {
    const started: string[] = [];
    const echo = tool('echo', started);
    async function* calls() {
      yield { _id: 'name', _tool: 'echo', v: 'Ada', _outputPath: '†state.name' };
      yield { _id: 'greet', _tool: 'echo', v: '†state.nick || †state.name', _outputPath: '†state.greeting' };
      yield { _id: 'city', _tool: 'echo', v: '†input.town || †input.city', _outputPath: '†state.city' };
    }
    const result = await run(calls(), { tools: [echo], input: { city: 'Paris' } });
    expect(statuses(result)).toEqual({ name: 'succeeded', greet: 'succeeded', city: 'succeeded' });
    expect(result.state).toEqual({ name: 'Ada', greeting: 'Ada', city: 'Paris' });
    expect(result.diagnostics.map((d) => [d.code, d.call])).toEqual([
      ['W_UNRESOLVED_ALTERNATIVE', 'greet'],
      ['W_UNRESOLVED_ALTERNATIVE', 'city'],
    ]);
  });

  it('an eager latent call without _output arrives invalid (E_NO_OUTPUT): the latent function is not asked', async () => {
    const started: string[] = [];
    const echo = tool('echo', started);
    const asked: string[] = [];
    async function* calls() {
      yield { _id: 'ok', _tool: 'echo', v: 1, _outputPath: '†state.a' };
      yield { _id: 'think', _tool: 'think', _outputPath: '†state.t' };
      yield { _id: 'written', _tool: 'think', _output: 'known', _outputPath: '†state.w' };
    }
    const result = await run(calls(), {
      tools: [echo, { name: 'think', latent: true }],
      latent: ({ call }) => {
        asked.push(call);
        return 'asked';
      },
    });
    expect(statuses(result)).toEqual({ ok: 'succeeded', think: 'failed', written: 'succeeded' });
    expect(result.calls[1]!.error).toMatchObject({ code: 'E_NO_OUTPUT' });
    expect(result.state).toEqual({ a: 1, w: 'known' });
    expect(asked).toEqual([]);
  });
});
