/**
 * JSONPath selections in references: filters, slices, `[-n]`, unions and recursive descent, as
 * parsed (exact offsets, hints), as resolved by jsonpath-plus, and what the filter grammar keeps
 * out (calls, other names, assignment) before anything runs.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_DEPTH_CEILING,
  MAX_SELECTION_LENGTH,
  MAX_SELECTION_NESTING,
  MAX_SELECTION_NODES,
} from '../../src/language/limits.js';
import { parseString, resolveReference } from '../../src/language/index.js';
import { SelectionLimitError } from '../../src/language/run-selection.js';

function read(text: string, state: unknown): unknown {
  const parsed = parseString(text);
  if (parsed.kind !== 'expression') throw new Error(`${text} did not parse: ${JSON.stringify(parsed)}`);
  return resolveReference(parsed.expression.refs[0]!, { state });
}

function errorOf(text: string) {
  const parsed = parseString(text);
  if (parsed.kind !== 'error') throw new Error(`${text} parsed: ${JSON.stringify(parsed)}`);
  return parsed;
}

const state = {
  flights: [
    { id: 'a', price: 250, city: 'Paris', seats: 3 },
    { id: 'b', price: 420, city: 'Rome', seats: 0 },
    { id: 'c', price: 120, city: 'Paris', seats: 1 },
    { id: 'd', price: 300, city: 'Oslo' },
  ],
  doc: { title: 'Root', sections: [{ title: 'One', body: { title: 'Deep' } }, { title: 'Two' }] },
  empty: [],
  nums: [5, 1, 9],
};

describe('selections resolve with jsonpath-plus', () => {
  it('a filter keeps the elements that pass, in order', () => {
    expect(read('†state.flights[?(@.price < 300)]', state)).toEqual([state.flights[0], state.flights[2]]);
    expect(read("†state.flights[?(@.city == 'Paris' && @.seats > 1)].id", state)).toEqual(['a']);
    expect(read('†state.nums[?(@ > 4)]', state)).toEqual([5, 9]);
    expect(read('†state.flights[?(!(@.price >= 300) || @.seats === 0)].id', state)).toEqual(['a', 'b', 'c']);
  });

  it('an element that lacks a key the filter reads is left out, not an error', () => {
    expect(read('†state.flights[?(@.seats.count > 0)]', state)).toEqual([]);
    expect(read('†state.flights[?(@.seats >= 0)].id', state)).toEqual(['a', 'b', 'c']);
  });

  it('slices, unions and [-n]', () => {
    expect(read('†state.flights[0:2].id', state)).toEqual(['a', 'b']);
    expect(read('†state.flights[-2:].id', state)).toEqual(['c', 'd']);
    expect(read('†state.flights[::2].id', state)).toEqual(['a', 'c']);
    expect(read('†state.flights[0,2].id', state)).toEqual(['a', 'c']);
    expect(read('†state.flights[-1].id', state)).toBe('d');
    expect(read('†state.flights[-4]', state)).toBe(state.flights[0]);
    expect(read('†state.flights[-5]', state)).toBeUndefined();
    expect(read('†state.empty[-1]', state)).toBeUndefined();
    expect(read('†state.empty[0:3]', state)).toEqual([]);
  });

  it('recursive descent finds the key at every depth, the start included', () => {
    expect(read('†state.doc..title', state)).toEqual(['Root', 'One', 'Deep', 'Two']);
    expect(read('†state.doc.sections..title', state)).toEqual(['One', 'Deep', 'Two']);
    expect(read('†state.doc..missing', state)).toEqual([]);
  });

  it('selections chain with [*] and keys, and what each selects is flattened, as with [*][*]', () => {
    const nested = { groups: [{ xs: [1, 2, 3] }, { xs: [4] }] };
    expect(read('†state.groups[*].xs[-1]', nested)).toEqual([3, 4]);
    expect(read('†state.groups[?(@.xs.length > 1)].xs[0:2]', nested)).toEqual([1, 2]);
  });

  it('a container that is missing, or not an array, selects nothing', () => {
    expect(read('†state.nope[?(@ > 1)]', state)).toBeUndefined();
    expect(read('†state.doc[0:1]', state)).toBeUndefined();
    expect(read('†state.nums..x', state)).toEqual([]);
    expect(read('†state.nums[0]..x', state)).toBeUndefined();
  });
});

describe('selections parse with exact offsets', () => {
  it.each([
    ['†state.a[?(@.price <)]', 20, /expected a value/],
    ['†state.a[?(@.price = 3)]', 19, /assigns/],
    ['†state.a[?(@.price < 3]', 22, /unclosed filter|expected/],
    ['†state.a[?(@.name.toUpperCase())]', 29, /cannot call functions/],
    ['†state.a[?(process.exit(1))]', 11, /unknown name 'process'/],
    ['†state.a[?(@.constructor)]', 13, /'constructor' is not allowed/],
    ['†state.a[?(@.__defineGetter__)]', 13, /not allowed/],
    ['†state.a[?(@==1)]', 12, /after '@'/],
    ["†state.a[?(@.x == 'a(b')]", 20, /cannot hold '\('/],
    ['†state.a[?(@.x == "a")]', 18, /single quotes/],
    ['†state.a[1:2:0]', 13, /step/],
    ['†state.a[-0]', 9, /names no element/],
    ['†state.a[0,-1]', 11, /expected an index after ','/],
    ['†state.a[-1,2]', 9, /union lists indices from 0/],
    ['†state.a[0:3', 12, /expected '\]' after the slice/],
    ['†state.a..', 10, /expected a name after '\.\.'/],
    ['†state.a..constructor', 10, /not allowed/],
  ])('%s: E_REF_SELECTION at %d', (text, offset, message) => {
    const e = errorOf(text);
    expect(e.code).toBe('E_REF_SELECTION');
    expect(e.offset).toBe(offset);
    expect(e.message).toMatch(message);
    expect(e.hint).toBeTruthy();
  });

  it('a selection inside an expression keeps the operators outside it', () => {
    const parsed = parseString('†state.a[?(@.x > 1 || @.y)] || †state.b');
    expect(parsed.kind).toBe('expression');
    if (parsed.kind !== 'expression') return;
    expect(parsed.expression.op).toBe('||');
    expect(parsed.expression.refs.map((r) => r.text)).toEqual(['†state.a[?(@.x > 1 || @.y)]', '†state.b']);
  });

  it('bounds the length and the nesting of a filter', () => {
    const long = `†state.a[?(@.x == ${'1 + '.repeat(MAX_SELECTION_LENGTH)}1)]`;
    expect(errorOf(long).message).toMatch(/at most/);
    const deep = `†state.a[?(${'('.repeat(MAX_SELECTION_NESTING)}@.x${')'.repeat(MAX_SELECTION_NESTING)})]`;
    expect(errorOf(deep).message).toMatch(/nests deeper/);
    const bangs = `†state.a[?(${'!'.repeat(MAX_SELECTION_NESTING)}@.x)]`;
    expect(errorOf(bangs).message).toMatch(/nests deeper/);
  });
});

describe('selections are bounded at run time', () => {
  it('a descent over more values than MAX_SELECTION_NODES fails with SelectionLimitError, before walking', () => {
    const wide = { rows: Array.from({ length: MAX_SELECTION_NODES }, (_, i) => ({ i })) };
    expect(() => read('†state.rows..i', wide)).toThrow(SelectionLimitError);
  });

  it('a value nested deeper than MAX_DEPTH_CEILING is refused before jsonpath-plus recurses into it', () => {
    let deep: unknown = { title: 'bottom' };
    for (let i = 0; i < 50_000; i++) deep = { next: deep };
    expect(() => read('†state.doc..title', { doc: deep })).toThrow(/more than 1000 levels/);
    let allowed: unknown = { title: 'bottom' };
    for (let i = 0; i < MAX_DEPTH_CEILING - 2; i++) allowed = { next: allowed };
    expect(read('†state.doc..title', { doc: allowed })).toEqual(['bottom']);
  });

  it('a filter over more elements than the budget fails the same way', () => {
    const many = { xs: new Array<number>(MAX_SELECTION_NODES + 1).fill(1) };
    expect(() => read('†state.xs[?(@ > 0)]', many)).toThrow(SelectionLimitError);
  });
});
