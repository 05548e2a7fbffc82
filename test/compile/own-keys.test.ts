/**
 * A call's arguments are its own keys: a key someone put on Object.prototype (prototype
 * pollution elsewhere in the process) is not taken for an argument, nor scanned for references.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';

const POLLUTED = 'pollutedArgument';

describe('own keys only', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>)[POLLUTED];
  });

  it('ignores an enumerable key on Object.prototype, in the call and in its arguments', () => {
    Object.defineProperty(Object.prototype, POLLUTED, {
      value: '†state.nowhere',
      enumerable: true,
      configurable: true,
      writable: true,
    });
    const result = compile([
      { _tool: 'f', a: 1, _outputPath: '†state.x' },
      { _tool: 'f', b: '†state.x' },
    ]);
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
    const [first, second] = result.plan!.calls;
    expect(Object.hasOwn(first!.args, POLLUTED)).toBe(false);
    expect(Object.keys(first!.args)).toEqual(['a']);
    expect(first!.refs).toEqual([]);
    expect(second!.refs.map((r) => r.at)).toEqual(['/b']);
  });
});
