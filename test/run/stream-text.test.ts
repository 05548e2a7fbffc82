/**
 * A run of plan text as it arrives (streamPlanText): calls start before the text has ended, and
 * the run's diagnostics are placed in the text, under the calls array's pointer.
 */
import { describe, expect, it } from 'vitest';
import { compile, parsePlan, run, streamPlanText, type Tool } from '../../src/index.js';

type Args = Record<string, unknown>;

function echo(started: string[], onStart: (id: string) => void = () => {}): Tool {
  return {
    name: 'echo',
    execute: async (args: Args, ctx) => {
      started.push(ctx.toolCallId);
      onStart(ctx.toolCallId);
      return args.v;
    },
  };
}

describe('a run of streamed plan text', () => {
  it('starts the first call before the text has ended', async () => {
    const started: string[] = [];
    let firstStarted!: () => void;
    const first = new Promise<void>((resolve) => (firstStarted = resolve));
    let textEnded = false;
    async function* text() {
      yield '{"calls": [\n  {"_id": "first", "_tool": "echo", "v": 1, "_outputPath": "†state.a"}';
      // The text goes on only once the first call has started.
      await first;
      yield ',\n  {"_id": "second", "_tool": "echo", "v": "†state.a", "_outputPath": "†state.b"}\n], "output": null}';
      textEnded = true;
    }
    const streamed = streamPlanText(text(), { shape: 'solution' });
    const tools = [echo(started, (id) => id === 'first' && firstStarted())];
    const result = await run(streamed.calls, { tools });
    expect(textEnded).toBe(true);
    expect(started).toEqual(['first', 'second']);
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ a: 1, b: 1 });
    expect((await streamed.ended).parsed.diagnostics).toEqual([]);
  });

  it("places a call's diagnostics in the text, as compile does for the whole text", async () => {
    const text =
      '{"calls": [\n  {"_tool": "echo", "v": 1, "_outputPath": "†state.a"},\n  {"_tool": "nope"}\n], "output": null}';
    async function* chunks() {
      for (const c of text) yield c;
    }
    const result = await run(streamPlanText(chunks()).calls, { tools: [echo([])] });
    expect(result.status).toBe('failed');
    const whole = compile(text, { tools: [echo([])] }).diagnostics.find((d) => d.code === 'E_UNKNOWN_TOOL');
    expect(whole).toMatchObject({ pointer: '/calls/1/_tool', line: 3 });
    expect(result.diagnostics.find((d) => d.code === 'E_UNKNOWN_TOOL')).toMatchObject({
      pointer: whole!.pointer,
      line: whole!.line,
      column: whole!.column,
    });
  });

  it('a text that goes bad after a call ran fails the run with the text diagnostics', async () => {
    const started: string[] = [];
    const parts = [
      '[{"_tool": "echo", "v": 1, "_outputPath": "†state.a"}, ',
      '{"_tool": "echo", "v": 2, "v": 3}, {"_tool": ',
    ];
    async function* chunks() {
      yield* parts;
    }
    const result = await run(streamPlanText(chunks()).calls, { tools: [echo(started)] });
    expect(started).toHaveLength(1);
    expect(result.status).toBe('failed');
    // The second call (a key written twice) never ran; the text's own error is parsePlan's.
    expect(result.calls[1]).toMatchObject({ status: 'failed' });
    expect(result.diagnostics).toContainEqual(parsePlan(parts.join('')).diagnostics[0]);
  });
});
