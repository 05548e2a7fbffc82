/** Paths: overlap (SPEC 4), own-property reads, canonical text. */
import { describe, expect, it } from 'vitest';
import type { Path } from '../../src/index.js';
import { formatPath, parseString } from '../../src/language/index.js';
import { getAtPath, hasPath, pathsOverlap, WILDCARD } from '../../src/language/paths.js';

function path(text: string): Path {
  const parsed = parseString(text);
  if (parsed.kind !== 'expression') throw new Error(`${text} did not parse`);
  const ref = parsed.expression.refs[0]!;
  return { root: ref.root, segments: ref.segments.filter((s) => s !== WILDCARD) as (string | number)[] };
}

describe('pathsOverlap', () => {
  it.each([
    ['†state.user', '†state.user.name', true],
    ['†state.user.name', '†state.user', true],
    ['†state.user', '†state.user', true],
    ['†state', '†state.anything.at.all', true],
    ['†state.user', '†state.username', false],
    ['†state.username', '†state.user', false],
    ['†state.user.name', '†state.user.nickname', false],
    ['†state.a.b', '†state.b.a', false],
    ['†state.list[0]', '†state.list["0"]', true],
    ['†state.list.0.x', '†state.list[0]', true],
    ['†state.list[1]', '†state.list[10]', false],
    ['†state.list[0]', '†state.list[1]', false],
    ['†state["a.b"]', '†state.a.b', false],
    ['†state["a.b"]', '†state.a', false],
    ['†input.x', '†state.x', false],
    ['†input', '†state', false],
    ['†input.x', '†input.x.y', true],
  ])('%s and %s: %s', (a, b, expected) => {
    expect(pathsOverlap(path(a), path(b))).toBe(expected);
    expect(pathsOverlap(path(b), path(a))).toBe(expected);
  });
});

describe('getAtPath', () => {
  const value = { a: { b: [10, 20, { c: null }] }, n: 0, s: 'str', length: 3 };

  it('follows keys and indices', () => {
    expect(getAtPath(value, [])).toBe(value);
    expect(getAtPath(value, ['a', 'b', 1])).toBe(20);
    expect(getAtPath(value, ['a', 'b', '1'])).toBe(20);
    expect(getAtPath(value, ['a', 'b', 2, 'c'])).toBeNull();
    expect(getAtPath(value, ['n'])).toBe(0);
    expect(getAtPath(value, ['length'])).toBe(3);
  });

  it('stops at scalars and at missing members', () => {
    expect(getAtPath(value, ['s', 0])).toBeUndefined();
    expect(getAtPath(value, ['s', 'length'])).toBeUndefined();
    expect(getAtPath(value, ['n', 'x'])).toBeUndefined();
    expect(getAtPath(value, ['a', 'b', 2, 'c', 'd'])).toBeUndefined();
    expect(getAtPath(value, ['a', 'b', 3])).toBeUndefined();
    expect(getAtPath(value, ['a', 'b', -1])).toBeUndefined();
    expect(getAtPath(value, ['a', 'b', 'x'])).toBeUndefined();
    expect(getAtPath(undefined, ['a'])).toBeUndefined();
    expect(getAtPath(null, [])).toBeNull();
  });

  it('never reaches an array length', () => {
    expect(getAtPath([1, 2], ['length'])).toBeUndefined();
    expect(getAtPath({ a: [] }, ['a', 'length'])).toBeUndefined();
  });

  it('never reaches inherited properties', () => {
    for (const key of [
      'toString',
      'hasOwnProperty',
      'constructor',
      '__proto__',
      'valueOf',
      'isPrototypeOf',
    ]) {
      expect(getAtPath({}, [key])).toBeUndefined();
      expect(getAtPath([], [key])).toBeUndefined();
    }
    const child = Object.create({ inherited: 1 }) as Record<string, unknown>;
    child.own = 2;
    expect(getAtPath(child, ['inherited'])).toBeUndefined();
    expect(getAtPath(child, ['own'])).toBe(2);
    expect(getAtPath([1], ['map'])).toBeUndefined();
  });

  it('reads an own "__proto__" key that JSON.parse created, without touching the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    expect(getAtPath(parsed, ['__proto__', 'x'])).toBe(1);
    expect(getAtPath({}, ['__proto__', 'x'])).toBeUndefined();
  });

  it('hasPath: null, false, 0 and "" are there', () => {
    const v = { nil: null, f: false, z: 0, e: '' };
    for (const key of Object.keys(v)) expect(hasPath(v, [key])).toBe(true);
    expect(hasPath(v, ['missing'])).toBe(false);
  });
});

describe('formatPath', () => {
  it('writes the canonical reference text', () => {
    expect(formatPath('state', [])).toBe('†state');
    expect(formatPath('input', ['q'])).toBe('†input.q');
    expect(formatPath('state', ['user', 'tags', 0, 'a b', 'a.b', '0', WILDCARD, 'id'])).toBe(
      '†state.user.tags[0]["a b"]["a.b"]["0"][*].id',
    );
    expect(formatPath('state', ['q"uote'])).toBe('†state["q\\"uote"]');
  });

  it('round-trips through the parser', () => {
    const segments = ['x', 3, 'with space', 'quote"d', 'back\\slash', 'dash-ok', '$d'];
    const text = formatPath('state', segments);
    const parsed = parseString(text);
    expect(parsed.kind).toBe('expression');
    if (parsed.kind === 'expression') expect(parsed.expression.refs[0]!.segments).toEqual(segments);
  });
});
