/**
 * IntColumn grows its first chunk by copying and then adds chunks of 2^14 entries: entries on
 * either side of each boundary must read back as written.
 */
import { describe, expect, it } from 'vitest';
import { IntColumn } from '../../src/compile/storage/int-column.js';

describe('IntColumn', () => {
  it('keeps every entry across the first chunk growing and the chunks added after it', () => {
    const column = new IntColumn(16);
    const count = 3 * (1 << 14) + 5;
    for (let k = 0; k < count; k++) column.push(k * 7 - 3);
    expect(column.size).toBe(count);
    for (const k of [0, 15, 16, 1023, 1024, (1 << 14) - 1, 1 << 14, (1 << 14) + 1, 2 << 14, count - 1])
      expect(column.at(k)).toBe(k * 7 - 3);
    let same = true;
    for (let k = 0; k < count; k++) if (column.at(k) !== k * 7 - 3) same = false;
    expect(same).toBe(true);
  });

  it('sets entries in any chunk', () => {
    const column = new IntColumn();
    for (let k = 0; k < (1 << 14) + 10; k++) column.push(0);
    column.set(3, -1);
    column.set((1 << 14) + 2, 42);
    expect(column.at(3)).toBe(-1);
    expect(column.at((1 << 14) + 2)).toBe(42);
    expect(column.at((1 << 14) + 1)).toBe(0);
  });

  it('starts no bigger than one chunk, whatever capacity it is given', () => {
    const column = new IntColumn(1 << 20);
    for (let k = 0; k < (1 << 14) + 1; k++) column.push(k);
    expect(column.at(1 << 14)).toBe(1 << 14);
  });
});
