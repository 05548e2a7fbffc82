import { describe, expect, it } from 'vitest';
import { checkJson, cloneJson, copyJson, jsonSize } from '../../src/language/json/json-value.js';
import { DEFAULT_LIMITS, type Limits, resolveLimits } from '../../src/language/limits.js';

const limits = (over: Partial<Limits> = {}): Limits => resolveLimits(over);

function nest(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

function problemOf(result: object): { code: string; pointer: string; message: string } {
  expect(result).toHaveProperty('problem');
  return (result as { problem: { code: string; pointer: string; message: string } }).problem;
}

describe('copyJson', () => {
  it('copies plain data exactly, without sharing a container', () => {
    const value = { a: [1, 'two', { three: true }], b: null, c: { d: -1.5e-7 } };
    const result = copyJson(value, { limits: DEFAULT_LIMITS });
    if (!('value' in result)) throw new Error('refused');
    expect(result.value).toEqual(value);
    expect(result.value).not.toBe(value);
    expect((result.value as typeof value).a).not.toBe(value.a);
    expect(result.size).toBe(JSON.stringify(value).length);
  });

  it('follows JSON.stringify: toJSON, dropped undefined members, null for undefined and NaN in arrays', () => {
    const at = new Date(Date.UTC(2026, 0, 2));
    const value = { at, gone: undefined, list: [undefined, Number.NaN, Infinity, 1], boxed: new String('s') };
    const result = copyJson(value, { limits: DEFAULT_LIMITS });
    if (!('value' in result)) throw new Error('refused');
    expect(result.value).toEqual(JSON.parse(JSON.stringify(value)));
    expect(Object.hasOwn(result.value as object, 'gone')).toBe(false);
  });

  it('keeps a "__proto__" key as data, never as the prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as object;
    const result = copyJson(value, { limits: DEFAULT_LIMITS });
    if (!('value' in result)) throw new Error('refused');
    const copy = result.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['a BigInt', { n: [1, 10n] }, '/n/1', /BigInt/],
    ['a function', { f: () => 1 }, '/f', /function/],
    ['a symbol', { s: [Symbol('x')] }, '/s/0', /symbol/],
    ['a Map', { m: new Map([[1, 2]]) }, '/m', /Map/],
    ['a Set', { s: new Set([1]) }, '/s', /Set/],
    ['a Promise', { p: Promise.resolve(1) }, '/p', /Promise/],
    ['an Error', { e: new Error('x') }, '/e', /Error/],
    ['a typed array', { b: new Uint8Array(2) }, '/b', /Uint8Array/],
  ])('refuses %s with the path to it', (_name, value, pointer, message) => {
    const problem = problemOf(copyJson(value, { limits: DEFAULT_LIMITS }));
    expect(problem.code).toBe('NOT_JSON');
    expect(problem.pointer).toBe(pointer);
    expect(problem.message).toMatch(message);
  });

  it('refuses a cycle, naming where it leads back to', () => {
    const a: Record<string, unknown> = { list: [] };
    (a.list as unknown[]).push({ back: a });
    const problem = problemOf(copyJson({ root: a }, { limits: DEFAULT_LIMITS }));
    expect(problem.code).toBe('NOT_JSON');
    expect(problem.message).toMatch(/cycle/);
    expect(problem.message).toMatch(/\/root/);
  });

  it('copies a shared (acyclic) part twice, as JSON would', () => {
    const shared = { x: 1 };
    const result = copyJson({ a: shared, b: shared }, { limits: DEFAULT_LIMITS });
    if (!('value' in result)) throw new Error('refused');
    expect(result.value).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });

  it('turns a throwing getter, a throwing toJSON and a throwing Proxy into problems', () => {
    const getter = {
      ok: 1,
      get bad(): number {
        throw new Error('no');
      },
    };
    expect(problemOf(copyJson({ g: getter }, { limits: DEFAULT_LIMITS }))).toMatchObject({
      code: 'NOT_JSON',
      pointer: '/g/bad',
    });
    const toJSON = {
      toJSON() {
        throw new Error('nope');
      },
    };
    expect(problemOf(copyJson([toJSON], { limits: DEFAULT_LIMITS })).pointer).toBe('/0');
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    expect(problemOf(copyJson({ p: proxy }, { limits: DEFAULT_LIMITS }))).toMatchObject({
      code: 'NOT_JSON',
      pointer: '/p',
    });
  });

  it('refuses nesting past maxDepth at the first container too deep, counting the path above', () => {
    expect('value' in copyJson(nest(3), { limits: limits({ maxDepth: 3 }) })).toBe(true);
    expect(problemOf(copyJson(nest(3), { limits: limits({ maxDepth: 2 }) }))).toMatchObject({
      code: 'LIMIT',
      pointer: '/a/a',
    });
    expect(problemOf(copyJson(nest(3), { limits: limits({ maxDepth: 3 }), depth: 1 })).pointer).toBe('/a/a');
  });

  it('walks 100,000 levels without recursion: a refusal, not a stack overflow', () => {
    const problem = problemOf(copyJson(nest(100_000), { limits: DEFAULT_LIMITS }));
    expect(problem.code).toBe('LIMIT');
    expect(problem.pointer.split('/').length - 1).toBe(DEFAULT_LIMITS.maxDepth);
  });

  it('refuses an array whose length alone is over the size budget, before walking its holes', () => {
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    const problem = problemOf(copyJson({ big: sparse }, { limits: DEFAULT_LIMITS }));
    expect(problem).toMatchObject({ code: 'LIMIT', pointer: '/big' });
  });

  it('counts size against maxTextLength, less what is used already', () => {
    const value = { text: 'x'.repeat(100) };
    const size = JSON.stringify(value).length;
    expect('value' in copyJson(value, { limits: limits({ maxTextLength: size }) })).toBe(true);
    expect(problemOf(copyJson(value, { limits: limits({ maxTextLength: size - 1 }) })).code).toBe('LIMIT');
    expect(problemOf(copyJson(value, { limits: limits({ maxTextLength: size }), usedSize: 1 })).code).toBe(
      'LIMIT',
    );
    expect(problemOf(copyJson('x'.repeat(50), { limits: limits({ maxTextLength: 10 }) })).code).toBe('LIMIT');
  });

  it('refuses more members than maxKeys in one object', () => {
    const value = { inner: { a: 1, b: 2, c: 3 } };
    expect(problemOf(copyJson(value, { limits: limits({ maxKeys: 2 }) }))).toMatchObject({
      code: 'LIMIT',
      pointer: '/inner',
    });
  });

  it('bounds a value that doubles at each level (a shared DAG) by its size', () => {
    let value: unknown = 'x'.repeat(10);
    for (let i = 0; i < 40; i++) value = { l: value, r: value };
    expect(problemOf(copyJson(value, { limits: limits({ maxTextLength: 1_000_000 }) })).code).toBe('LIMIT');
  });
});

describe('checkJson', () => {
  it('accepts what JSON.parse makes, with its size', () => {
    const text = '{"a":[1,2,{"b":"c"}],"d":null,"e":true}';
    expect(checkJson(JSON.parse(text), { limits: DEFAULT_LIMITS })).toEqual({ size: text.length });
  });

  it('refuses anything that is not plain data: a Date, NaN, a class instance', () => {
    expect(problemOf(checkJson({ at: new Date() }, { limits: DEFAULT_LIMITS })).pointer).toBe('/at');
    expect(problemOf(checkJson([Number.NaN], { limits: DEFAULT_LIMITS })).pointer).toBe('/0');
    class Point {
      x = 1;
    }
    expect(problemOf(checkJson({ p: new Point() }, { limits: DEFAULT_LIMITS })).message).toMatch(/Point/);
  });

  it('checks depth iteratively on parsed text nested 100,000 deep', () => {
    const deep: unknown = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(problemOf(checkJson(deep, { limits: DEFAULT_LIMITS })).code).toBe('LIMIT');
  });
});

describe('cloneJson and jsonSize', () => {
  it('clone a value 1,000 levels deep without recursion, and measure it as JSON does', () => {
    const value = nest(1000);
    const copy = cloneJson(value);
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    expect(jsonSize(value)).toBe(JSON.stringify(value).length);
  });

  it('jsonSize counts what JSON.stringify writes for ASCII data', () => {
    const value = { a: [1, 22, 333, -4.5, null, true, false], b: { 'key with space': 'text' }, c: [] };
    expect(jsonSize(value)).toBe(JSON.stringify(value).length);
  });
});
