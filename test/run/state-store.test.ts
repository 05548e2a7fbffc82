import { describe, expect, it } from 'vitest';
import { jsonSize } from '../../src/language/json/json-value.js';
import { DEFAULT_LIMITS, resolveLimits } from '../../src/language/limits.js';
import { RunState, StateWriteError } from '../../src/run/state/state-store.js';

function stateOf(initial: Record<string, unknown>, maxTextLength = DEFAULT_LIMITS.maxTextLength): RunState {
  return new RunState(initial, { limits: resolveLimits({ maxTextLength }), size: jsonSize(initial) });
}

function write(state: RunState, segments: (string | number)[], value: unknown): void {
  state.write(segments, value, jsonSize(value));
}

describe('RunState', () => {
  it('never changes the initial state, and copies only the containers on the written path', () => {
    const untouched = { deep: { list: [1, 2] } };
    const initial = { a: { b: 1 }, untouched };
    const frozen = JSON.stringify(initial);
    const state = stateOf(initial);
    write(state, ['a', 'c'], 2);
    expect(JSON.stringify(initial)).toBe(frozen);
    expect(state.value).toEqual({ a: { b: 1, c: 2 }, untouched });
    // What no write touched is shared, not copied.
    expect(state.value.untouched).toBe(untouched);
    expect(state.value.a).not.toBe(initial.a);
  });

  it('copies a container once: a second write under it mutates the run’s own copy', () => {
    const state = stateOf({ a: { x: 0 } });
    write(state, ['a', 'y'], 1);
    const copy = state.value.a;
    write(state, ['a', 'z'], 2);
    expect(state.value.a).toBe(copy);
    expect(copy).toEqual({ x: 0, y: 1, z: 2 });
  });

  it('keeps its size at the JSON text of the state (a comma ahead per object) through writes, overwrites and holes', () => {
    const state = stateOf({ keep: 'x', list: [1] });
    const steps: [(string | number)[], unknown][] = [
      [['new', 'deep', 'er'], { v: [1, 2, 3] }],
      [['keep'], 'a longer string than before'],
      [['list', 4], true],
      [['items', 2], 'z'],
      [['new'], 7],
      [['list', 0], { replaced: null }],
    ];
    let objectsWrittenInto = 0;
    for (const [segments, value] of steps) {
      write(state, segments, value);
      objectsWrittenInto += 1;
      const text = JSON.stringify(state.value).length;
      expect(state.size).toBeGreaterThanOrEqual(text);
      expect(state.size - text).toBeLessThanOrEqual(objectsWrittenInto);
    }
    // Arrays are counted exactly: holes, elements and commas.
    const list = stateOf({ list: [] });
    write(list, ['list', 3], 'x');
    write(list, ['list', 0], 1);
    write(list, ['list', 5], [true]);
    expect(list.size).toBe(JSON.stringify(list.value).length);
  });

  it('refuses a write that would grow the state past maxTextLength, and changes nothing', () => {
    const state = stateOf({ a: 1 }, 40);
    write(state, ['b'], 'x'.repeat(10));
    const before = JSON.stringify(state.value);
    expect(() => write(state, ['c'], 'y'.repeat(30))).toThrow(StateWriteError);
    expect(JSON.stringify(state.value)).toBe(before);
    expect(state.size).toBe(before.length);
  });

  it('counts the holes of an index far past an array’s end: a short path cannot make a huge state', () => {
    const state = stateOf({}, 1000);
    let error: unknown;
    try {
      write(state, ['a', 999_999], 1);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StateWriteError);
    expect((error as StateWriteError).code).toBe('LIMIT');
    expect(state.value).toEqual({});
  });

  it('refuses a key inside an array (JSON would drop it) before changing anything', () => {
    const state = stateOf({ list: [1, 2] });
    let error: unknown;
    try {
      write(state, ['list', 'name', 'x'], 1);
    } catch (e) {
      error = e;
    }
    expect((error as StateWriteError).code).toBe('STATE_CONFLICT');
    expect(state.value).toEqual({ list: [1, 2] });
    // A canonical index written as a key is an index.
    write(state, ['list', '1'], 5);
    expect(state.value.list).toEqual([1, 5]);
  });

  it('replaces the whole state only with an object', () => {
    const state = stateOf({ a: 1 });
    expect(() => write(state, [], [1])).toThrow(/only an object/);
    write(state, [], { b: 2 });
    expect(state.value).toEqual({ b: 2 });
    expect(state.size).toBe(JSON.stringify({ b: 2 }).length);
  });

  it('writes a "__proto__" key as data', () => {
    const state = stateOf({});
    write(state, ['__proto__'], { polluted: true });
    expect(Object.getPrototypeOf(state.value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('RunState.share', () => {
  it('hands out the caller’s values as a frozen copy, made once, and never freezes the caller’s objects', () => {
    const big = { list: [1, 2, { deep: true }] };
    const state = stateOf({ big });
    const first = state.share(state.value.big) as typeof big;
    const second = state.share(state.value.big);
    expect(first).toEqual(big);
    expect(first).not.toBe(big);
    expect(second).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.list) && Object.isFrozen(first.list[2])).toBe(
      true,
    );
    expect(Object.isFrozen(big) || Object.isFrozen(big.list)).toBe(false);
  });

  it('freezes the run’s own values where they are, and a later write copies instead of changing them', () => {
    const state = stateOf({});
    write(state, ['out'], { a: { b: 1 } });
    const shared = state.share(state.value.out) as { a: { b: number } };
    expect(shared).toBe(state.value.out);
    expect(Object.isFrozen(shared.a)).toBe(true);
    write(state, ['out', 'a', 'c'], 2);
    expect(shared).toEqual({ a: { b: 1 } });
    expect(state.value.out).toEqual({ a: { b: 1, c: 2 } });
    expect(state.size).toBeGreaterThanOrEqual(JSON.stringify(state.value).length);
  });

  it('freezes a one-level copy in place and the caller’s values below it as copies', () => {
    const caller = { keep: { k: 1 }, other: 2 };
    const state = stateOf(caller);
    write(state, ['added'], 3);
    const root = state.share(state.value);
    expect(root).toBe(state.value);
    expect(Object.isFrozen(root)).toBe(true);
    expect(root.keep).toEqual({ k: 1 });
    expect(root.keep).not.toBe(caller.keep);
    expect(Object.isFrozen(caller) || Object.isFrozen(caller.keep)).toBe(false);
    write(state, ['later'], 4);
    expect(root).not.toHaveProperty('later');
    expect(state.value).toEqual({ keep: { k: 1 }, other: 2, added: 3, later: 4 });
  });

  it('walks 1,000 levels without recursion', () => {
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < 1_000; i++) deep = deep.d = {};
    const state = new RunState({}, { limits: resolveLimits({ maxDepth: 1_000 }), size: 2 });
    write(state, ['x'], top);
    expect(Object.isFrozen(state.share(state.value.x))).toBe(true);
  });
});
