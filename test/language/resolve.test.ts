/** SPEC 3 and 6: what a reference resolves to, `[*]` reads, and existence for || and &&. */
import { describe, expect, it } from 'vitest';
import { parseString, resolveExpression, resolveReference } from '../../src/language/index.js';

function expr(text: string) {
  const parsed = parseString(text);
  if (parsed.kind !== 'expression') throw new Error(`${text} did not parse: ${JSON.stringify(parsed)}`);
  return parsed.expression;
}

function read(text: string, state: unknown, input?: unknown): unknown {
  const e = expr(text);
  expect(e.refs).toHaveLength(1);
  return resolveReference(e.refs[0]!, { state, input });
}

describe('plain references', () => {
  const state = {
    n: 42,
    s: 'text',
    t: true,
    nil: null,
    zero: 0,
    empty: '',
    no: false,
    user: { name: 'Ada', tags: ['a', 'b'] },
    'a.b': 1,
    m: { '0': 'zero-key' },
  };

  it('keeps the JSON type of the value', () => {
    expect(read('†state.n', state)).toBe(42);
    expect(read('†state.s', state)).toBe('text');
    expect(read('†state.t', state)).toBe(true);
    expect(read('†state.nil', state)).toBeNull();
    expect(read('†state.user', state)).toEqual({ name: 'Ada', tags: ['a', 'b'] });
  });

  it('†state is the whole state; †input reads the input', () => {
    expect(read('†state', state)).toBe(state);
    expect(read('†input.q', state, { q: [1] })).toEqual([1]);
    expect(read('†input', state, { q: 1 })).toEqual({ q: 1 });
  });

  it('follows dotted, numeric and quoted segments', () => {
    expect(read('†state.user.tags.1', state)).toBe('b');
    expect(read('†state.user.tags[0]', state)).toBe('a');
    expect(read('†state["a.b"]', state)).toBe(1);
    expect(read('†state.a.b', state)).toBeUndefined();
  });

  it('index 0 and key "0" name the same property', () => {
    expect(read('†state.m[0]', state)).toBe('zero-key');
    expect(read('†state.m.0', state)).toBe('zero-key');
    expect(read('†state.user.tags["0"]', state)).toBe('a');
  });

  it('a missing path, or a path through a scalar, is undefined', () => {
    expect(read('†state.missing', state)).toBeUndefined();
    expect(read('†state.n.x', state)).toBeUndefined();
    expect(read('†state.s[0]', state)).toBeUndefined();
    expect(read('†state.nil.x', state)).toBeUndefined();
    expect(read('†state.user.tags[2]', state)).toBeUndefined();
    expect(read('†input.q', state, undefined)).toBeUndefined();
  });

  it('never reaches inherited properties or an array length', () => {
    expect(read('†state.user.toString', state)).toBeUndefined();
    expect(read('†state.user.hasOwnProperty', state)).toBeUndefined();
    expect(read('†state.user.valueOf', state)).toBeUndefined();
    expect(read('†state.user.tags.length', state)).toBeUndefined();
    expect(read('†state.user.tags.map', state)).toBeUndefined();
    expect(read('†state.s.length', state)).toBeUndefined();
    const inherited = Object.create({ secret: 1 }) as object;
    expect(read('†state.o.secret', { o: inherited })).toBeUndefined();
  });
});

describe('[*] reads (jsonpath-plus)', () => {
  const state = {
    items: [
      { id: 1, tags: [{ n: 'p' }, { n: 'q' }] },
      { id: 2, tags: [{ n: 'r' }] },
      { name: 'no id', tags: [] },
    ],
    grid: [
      [1, 2],
      [3, 4, 5],
    ],
    empty: [],
    obj: { a: 1 },
  };

  it('selects a field of every element, skipping elements without it', () => {
    expect(read('†state.items[*].id', state)).toEqual([1, 2]);
  });

  it('nested wildcards flatten', () => {
    expect(read('†state.items[*].tags[*].n', state)).toEqual(['p', 'q', 'r']);
    expect(read('†state.grid[*][*]', state)).toEqual([1, 2, 3, 4, 5]);
    expect(read('†state.grid[*][1]', state)).toEqual([2, 4]);
    expect(read('†state.grid[*][2]', state)).toEqual([5]);
  });

  it('[*] alone is a copy of the elements', () => {
    expect(read('†state.grid[0][*]', state)).toEqual([1, 2]);
    expect(read('†state.items[1].tags[*]', state)).toEqual([{ n: 'r' }]);
  });

  it('an empty array gives an empty array (it exists); a missing or non-array container gives nothing', () => {
    expect(read('†state.empty[*]', state)).toEqual([]);
    expect(read('†state.empty[*].id', state)).toEqual([]);
    expect(read('†state.items[*].nothing', state)).toEqual([]);
    expect(read('†state.missing[*].id', state)).toBeUndefined();
    expect(read('†state.items[0].id[*]', state)).toBeUndefined();
  });

  it('never reaches an array length or inherited properties after [*]', () => {
    expect(read('†state.grid[*].length', state)).toEqual([]);
    expect(read('†state.items[*].toString', state)).toEqual([]);
    expect(read('†state.items[*].tags.length', state)).toEqual([]);
  });

  // Keys that mean something in JSONPath must stay literal own-property names.
  const SPECIAL_KEYS = [
    'a,b',
    'x,y',
    '@',
    '$',
    '*',
    '..',
    '.',
    'a.b',
    ']',
    '[',
    'a]b',
    "'",
    "a'.b",
    '"',
    '`',
    '`a',
    ';',
    'a;b',
    '^',
    'x^y',
    '~',
    'a~b',
    '?(@.x)',
    '(@.x)',
    '@string()',
    '1:2',
    '-1',
    ' ',
    '',
    'length',
  ];

  it.each(SPECIAL_KEYS)('the key %j is a literal name', (key) => {
    // Every element also has keys that a misparsed path could reach instead.
    const items = [
      { [key]: 'first', x: 'X1', y: 'Y1', a: 'A1', b: 'B1', '1': 'one' },
      { x: 'X2', y: 'Y2', a: 'A2', b: 'B2' },
      { [key]: 'third' },
    ];
    const text = `†state.items[*][${JSON.stringify(key)}]`;
    expect(read(text, { items })).toEqual(['first', 'third']);
    // The same key before any [*] is read the plain way and agrees.
    expect(read(`†state.items[0][${JSON.stringify(key)}]`, { items })).toBe('first');
  });

  it('a huge selection does not overflow the stack', () => {
    const big = Array.from({ length: 300_000 }, (_, id) => ({ id }));
    const ids = read('†state.big[*].id', { big }) as number[];
    expect(ids).toHaveLength(300_000);
    expect(ids[299_999]).toBe(299_999);
    expect(read('†state.rows[*][*]', { rows: [big, big] })).toHaveLength(600_000);
  });

  it('a special key between two wildcards', () => {
    const state2 = {
      rows: [{ 'a,b': [{ v: 1 }, { v: 2 }] }, { 'a,b': [{ v: 3 }] }, { a: [{ v: 9 }], b: [{ v: 9 }] }],
    };
    expect(read('†state.rows[*]["a,b"][*].v', state2)).toEqual([1, 2, 3]);
  });
});

describe('resolveExpression: SPEC 6 existence', () => {
  const state = { nil: null, no: false, zero: 0, empty: '', one: 1 };
  const roots = { state };

  it.each(['nil', 'no', 'zero', 'empty'])('%s exists (null, false, 0 and "" are values)', (key) => {
    expect(resolveExpression(expr(`†state.${key}`), roots)).toEqual({
      exists: true,
      value: state[key as keyof typeof state],
    });
  });

  it('a single missing reference has no value', () => {
    expect(resolveExpression(expr('†state.missing'), roots)).toEqual({ exists: false });
  });

  it('|| takes the first that exists, even when it is falsy', () => {
    expect(resolveExpression(expr('†state.missing || †state.nil || †state.one'), roots)).toEqual({
      exists: true,
      value: null,
    });
    expect(resolveExpression(expr('†state.no || †state.one'), roots)).toEqual({ exists: true, value: false });
    expect(resolveExpression(expr('†state.missing||†state.zero'), roots)).toEqual({ exists: true, value: 0 });
    expect(resolveExpression(expr('†state.missing || †state.gone'), roots)).toEqual({ exists: false });
  });

  it('&& gives the last once all exist, and nothing when any is missing', () => {
    expect(resolveExpression(expr('†state.one && †state.empty'), roots)).toEqual({ exists: true, value: '' });
    expect(resolveExpression(expr('†state.nil&&†state.no&&†state.zero'), roots)).toEqual({
      exists: true,
      value: 0,
    });
    expect(resolveExpression(expr('†state.one && †state.missing'), roots)).toEqual({ exists: false });
    expect(resolveExpression(expr('†state.missing && †state.one'), roots)).toEqual({ exists: false });
  });

  it('mixes roots', () => {
    expect(resolveExpression(expr('†input.q || †state.one'), { state, input: { q: 'in' } })).toEqual({
      exists: true,
      value: 'in',
    });
    expect(resolveExpression(expr('†input.q && †state.one'), { state, input: {} })).toEqual({
      exists: false,
    });
  });

  it('an empty [*] selection exists', () => {
    expect(
      resolveExpression(expr('†state.list[*].id || †state.one'), { state: { list: [], one: 1 } }),
    ).toEqual({ exists: true, value: [] });
  });
});
