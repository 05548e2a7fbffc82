/**
 * `[*]` reads of one value share their result: twenty reads of a million-element input built
 * twenty arrays and copied each (2 GB). A read of the same path over the same container gets the
 * same frozen array; a write into the container makes the next read select anew.
 */
import { describe, expect, it } from 'vitest';
import { run, type Tool } from '../../src/index.js';

/** Every argument object each call got, by call id. */
function recordingTools(): { tools: Tool[]; seen: Map<string, Record<string, unknown>> } {
  const seen = new Map<string, Record<string, unknown>>();
  const tools: Tool[] = [
    {
      name: 'look',
      execute: (args, context) => {
        seen.set(context.toolCallId, args as Record<string, unknown>);
        return 'ok';
      },
    },
    { name: 'put', execute: (args) => (args as { value: unknown }).value },
  ];
  return { tools, seen };
}

const items = Array.from({ length: 1000 }, (_, i) => ({ id: i, name: `n${i}` }));

describe('[*] reads share their result', () => {
  it('ten reads of †input.items[*] get one frozen array, not ten copies', async () => {
    const { tools, seen } = recordingTools();
    const plan = Array.from({ length: 10 }, (_, i) => ({
      _id: `r${i}`,
      _tool: 'look',
      v: '†input.items[*]',
    }));
    const result = await run(JSON.stringify(plan), { tools, input: { items } });
    expect(result.calls.every((call) => call.status === 'succeeded')).toBe(true);
    const first = seen.get('r0')!.v as unknown[];
    expect(first).toHaveLength(1000);
    expect(Object.isFrozen(first)).toBe(true);
    for (let i = 1; i < 10; i++) expect(seen.get(`r${i}`)!.v).toBe(first);
  });

  it('a path after [*] is shared too, apart from another path over the same container', async () => {
    const { tools, seen } = recordingTools();
    const plan = [
      { _id: 'a', _tool: 'look', v: '†input.items[*].name' },
      { _id: 'b', _tool: 'look', v: '†input.items[*].name' },
      { _id: 'c', _tool: 'look', v: '†input.items[*].id' },
      { _id: 'd', _tool: 'look', v: '†input.missing || †input.items[*].name' },
    ];
    await run(JSON.stringify(plan), { tools, input: { items } });
    expect(seen.get('a')!.v).toBe(seen.get('b')!.v);
    expect(seen.get('d')!.v).toBe(seen.get('a')!.v);
    expect((seen.get('a')!.v as unknown[])[999]).toBe('n999');
    expect((seen.get('c')!.v as unknown[])[999]).toBe(999);
  });

  it('a write into the container between two reads: the second read selects anew', async () => {
    const { tools, seen } = recordingTools();
    const plan = [
      { _id: 'before', _tool: 'look', v: '†state.list[*]' },
      { _id: 'write', _tool: 'put', value: 'changed', _outputPath: '†state.list[1]', _after: ['before'] },
      { _id: 'after', _tool: 'look', v: '†state.list[*]', _after: ['write'] },
    ];
    const result = await run(JSON.stringify(plan), { tools, state: { list: ['a', 'b', 'c'] } });
    expect(result.calls.map((call) => call.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(seen.get('before')!.v).toEqual(['a', 'b', 'c']);
    expect(seen.get('after')!.v).toEqual(['a', 'changed', 'c']);
    expect(result.state.list).toEqual(['a', 'changed', 'c']);
  });
});
