import { describe, expect, it } from 'vitest';
import { hashOf, StringTable } from '../../src/language/string-table.js';

describe('StringTable', () => {
  it('numbers strings in the order first added and finds each again by its characters', () => {
    const table = new StringTable();
    const strings = Array.from({ length: 20_000 }, (_, i) => `†state.v${i}`);
    strings.forEach((s, i) => {
      expect(table.find(s)).toBe(-1);
      expect(table.add(s)).toBe(i);
    });
    expect(table.size).toBe(20_000);
    // Equal strings made anew (not the same objects) find the same numbers.
    for (let i = 0; i < 20_000; i += 997) expect(table.find(['†state.v', i].join(''))).toBe(i);
    expect(table.find('†state.v20000')).toBe(-1);
    expect(table.find('†state.v')).toBe(-1);
    expect(table.find('')).toBe(-1);
  });

  it('tells apart strings of one length and those that are prefixes of others', () => {
    const table = new StringTable();
    const a = table.add('†state.ab');
    const b = table.add('†state.ba');
    const c = table.add('†state.a');
    expect([table.find('†state.ab'), table.find('†state.ba'), table.find('†state.a')]).toEqual([a, b, c]);
    expect(table.find('†state.aa')).toBe(-1);
  });

  it('keeps long strings apart, numbered in the same sequence', () => {
    const table = new StringTable();
    const long = `†state.${'x'.repeat(500)}`;
    expect(table.add('†state.a')).toBe(0);
    expect(table.add(long)).toBe(1);
    expect(table.add('†state.b')).toBe(2);
    expect(table.find(`†state.${'x'.repeat(500)}`)).toBe(1);
    expect(table.find(`†state.${'x'.repeat(499)}y`)).toBe(-1);
    expect(table.find('†state.b')).toBe(2);
  });

  it('looks at a bounded run of slots when a plan is made of strings that collide', () => {
    // 600 strings whose hashes agree on their low 13 bits: one slot in every table up to 8192
    // slots (the table holds 600 strings in 2048). Without a bound, each lookup would walk
    // the run of all those before it.
    const colliding: string[] = [];
    const target = hashOf('†state.x') & 0x1fff;
    for (let i = 0; colliding.length < 600; i++) {
      const text = `†state.x${i}`;
      if ((hashOf(text) & 0x1fff) === target) colliding.push(text);
    }
    const table = new StringTable();
    colliding.forEach((s, i) => expect(table.add(s)).toBe(i));
    // At most one bounded run of them is in the slots; the rest went to the Map.
    expect(table.spilled).toBeGreaterThanOrEqual(600 - 32);
    colliding.forEach((s, i) => expect(table.find([s].join(''))).toBe(i));
    expect(table.find('†state.x-1')).toBe(-1);
    // Ordinary strings still go to the slots, and find their numbers.
    expect(table.add('†state.plain')).toBe(600);
    expect(table.spilled).toBeLessThanOrEqual(600);
    expect(table.find('†state.plain')).toBe(600);
  });
});
