/**
 * A bracketed key on an array reads what a write of the same path would reach: `["1"]` is index
 * 1, `["01"]` is the key "01", which no array has (its write is refused, so its read is missing).
 */
import { describe, expect, it } from 'vitest';
import { getAtPath } from '../../src/language/paths.js';
import { compile, run, type Tool } from '../../src/index.js';

const tools: Tool[] = [{ name: 't', execute: (args) => args }];
const state = { arr: [10, 20, 30], fallback: 'f' };

describe('a quoted index on an array', () => {
  it('["01"] of an array a call writes is missing at run time, not arr[1]: the call is skipped', async () => {
    const result = await run(
      JSON.stringify([
        { _tool: 'list', _outputPath: '†state.made' },
        { _tool: 't', v: '†state.made["01"]', _outputPath: '†state.out' },
      ]),
      { tools: [...tools, { name: 'list', execute: () => [10, 20, 30] }] },
    );
    expect(result.calls[1]!.status).toBe('skipped');
    expect(result.state.out).toBeUndefined();
  });

  it('["01"] of an array in the initial state is never set: E_UNRESOLVED at compile time', () => {
    const result = compile(JSON.stringify([{ _tool: 't', v: '†state.arr["01"]' }]), { tools, state });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toContain('E_UNRESOLVED');
  });

  it('["01"] || fallback takes the fallback; ["1"] reads index 1', async () => {
    const result = await run(
      JSON.stringify([
        { _tool: 't', v: '†state.arr["01"] || †state.fallback', _outputPath: '†state.a' },
        { _tool: 't', v: '†state.arr["1"]', _outputPath: '†state.b' },
        {
          _tool: 't',
          v: '†state.arr["00"] || †state.arr["-0"] || †state.arr["1e0"] || †state.fallback',
          _outputPath: '†state.c',
        },
      ]),
      { tools, state },
    );
    expect(result.state).toMatchObject({ a: { v: 'f' }, b: { v: 20 }, c: { v: 'f' } });
  });

  it('reads and writes agree: the write of ["01"] is refused, the read of it is missing', async () => {
    const written = await run(JSON.stringify([{ _tool: 't', _outputPath: '†state.arr["01"]' }]), {
      tools,
      state,
    });
    expect(written.calls[0]!.status).toBe('failed');
    expect(written.calls[0]!.error!.code).toBe('STATE_CONFLICT');
    expect(getAtPath(state, ['arr', '01'])).toBeUndefined();
    expect(getAtPath(state, ['arr', '2'])).toBe(30);
    expect(getAtPath(state, ['arr', '02'])).toBeUndefined();
  });
});
