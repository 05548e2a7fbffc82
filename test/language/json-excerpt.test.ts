import { describe, expect, it } from 'vitest';
import { jsonExcerpt, jsonExcerptText, omissionMarker } from '../../src/language/json-excerpt.js';

const values: unknown[] = [
  null,
  true,
  0,
  -1.5e-7,
  'plain',
  'quote " backslash \\ newline \n tab \t bell \u0007 emoji 😀 lone \ud800 end',
  [],
  {},
  [1, 'two', { three: [3, null, false] }, []],
  { a: 1, b: undefined, c: () => 1, d: [undefined, () => 2, Number.NaN], '2': 'x', '1': 'y' },
  { orders: Array.from({ length: 500 }, (_, i) => ({ id: `order_${i}`, total: i * 1.25 })) },
];

describe('jsonExcerpt', () => {
  it.each(values.map((v) => [JSON.stringify(v)?.slice(0, 40) ?? 'undefined', v]))(
    '%s: the text is the start of JSON.stringify, the count is what is left out',
    (_name, value) => {
      const full = JSON.stringify(value)!;
      for (const maxLength of [0, 1, 7, 50, 2_000, 100_000]) {
        const excerpt = jsonExcerpt(value, { maxLength });
        expect(excerpt.text).toBe(full.slice(0, maxLength));
        expect(excerpt.omitted).toBe(Math.max(0, full.length - maxLength));
        expect(excerpt.atLeast).toBe(false);
      }
    },
  );

  it('a 5 MB string: only its head is escaped, and the count stops where told', () => {
    const huge = 'x'.repeat(5_000_000);
    const excerpt = jsonExcerpt({ log: huge }, { maxLength: 20, countUpTo: 1_000 });
    expect(excerpt.text).toBe('{"log":"xxxxxxxxxxxx');
    expect(excerpt.atLeast).toBe(true);
    expect(excerpt.omitted).toBeGreaterThan(1_000);
    expect(jsonExcerpt({ log: huge }, { maxLength: 20, countUpTo: 100_000_000 })).toEqual({
      text: '{"log":"xxxxxxxxxxxx',
      omitted: 5_000_010 - 20,
      atLeast: false,
    });
  });

  it('nesting 100,000 deep does not overflow the stack; a cycle ends at the count', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonExcerpt(deep, { maxLength: 5 })).toEqual({
      text: '[[[[[',
      omitted: 200_001 - 5,
      atLeast: false,
    });
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    const excerpt = jsonExcerpt(cyclic, { maxLength: 10, countUpTo: 100 });
    expect(excerpt).toMatchObject({ text: '[[[[[[[[[[', atLeast: true });
  });

  it('a Proxy whose traps throw: what was written stands, the rest is counted as unknown', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no');
        },
      },
    );
    expect(jsonExcerpt({ a: 1, b: hostile }, { maxLength: 100 })).toMatchObject({
      text: '{"a":1,"b":{',
      atLeast: true,
    });
  });

  it('marks the cut with the count, grouped by thousands', () => {
    expect(jsonExcerptText('abcdef', { maxLength: 100 })).toBe('"abcdef"');
    expect(jsonExcerptText('x'.repeat(12_350), { maxLength: 7 })).toBe('"xxxxxx… (12,345 more characters)');
    expect(omissionMarker({ omitted: 1, atLeast: false })).toBe('… (1 more character)');
    expect(omissionMarker({ omitted: 1_000_000, atLeast: true })).toBe(
      '… (more than 1,000,000 more characters)',
    );
  });
});
