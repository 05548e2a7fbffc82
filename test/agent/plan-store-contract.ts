/**
 * The one contract every plan store keeps, run against each of them (plan-store.test.ts: the
 * local folder with both strategies and memory; test/distributed/plan-store-redis.test.ts:
 * Redis). What a store holds behind its back (a file planted in its folder, a key set in
 * Redis) is hostile input: the harness plants it, and the contract says what the store makes
 * of it. The local folder's links get their own part, run where the harness can plant them.
 */
import { describe, expect, it } from 'vitest';
import type { PlanStore } from '../../src/agent/index.js';
import { isPlanStoreError, type PlanStoreErrorKind } from '../../src/index.js';

export interface StoreBounds {
  readonly maxValueBytes?: number;
  readonly maxListKeys?: number;
}

export interface PlanStoreHarness {
  /** A fresh, empty store of its own, with these bounds. */
  make(bounds?: StoreBounds): Promise<PlanStore>;
  /** Puts `text` under a raw name behind the store's back; undefined where nothing is behind it (memory). */
  plant?(store: PlanStore, rawName: string, text: string): Promise<void>;
  /** Puts something that is not text under `key` (a folder, a Redis list). */
  plantNonText?(store: PlanStore, key: string): Promise<void>;
  /** The local folder's links: a link named `key` to `target`, and a place outside the folder. */
  links?: {
    outside(): Promise<string>;
    plantLink(store: PlanStore, key: string, target: string): Promise<void>;
    plantHardLink(store: PlanStore, key: string, target: string): Promise<void>;
    readOutside(path: string): Promise<string>;
    writeOutside(path: string, text: string): Promise<void>;
  };
}

/** Keys no store takes: traversal, absolute paths, separators, NUL and control characters, sizes, types. */
export const BAD_KEYS: readonly unknown[] = [
  '',
  '.',
  '..',
  '../escape.md',
  '..\\escape.md',
  'a/b',
  'sub/../PLAN.md',
  '/etc/passwd',
  'C:\\Windows',
  '\\\\server\\share',
  'a\0b',
  'a\nb',
  '.hidden',
  'with space',
  'émoji-✓',
  'star*',
  'x'.repeat(201),
  42,
  undefined,
  null,
  ['PLAN.md'],
];

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

async function storeRefusal(promise: Promise<unknown>, kind: PlanStoreErrorKind): Promise<Error> {
  const error = await refusal(promise);
  expect(isPlanStoreError(error), String(error)).toBe(true);
  expect((error as { kind?: unknown }).kind).toBe(kind);
  return error;
}

export function describePlanStoreContract(name: string, harness: PlanStoreHarness): void {
  describe(`${name}: the PlanStore contract`, () => {
    it('reads null for a missing key, reads back what was written, and a write replaces it whole', async () => {
      const store = await harness.make();
      expect(await store.read('PLAN.md')).toBeNull();
      await store.write('PLAN.md', '# Plan\n\n1. é ✓ 🎉\n');
      expect(await store.read('PLAN.md')).toBe('# Plan\n\n1. é ✓ 🎉\n');
      await store.write('PLAN.md', 'v2');
      expect(await store.read('PLAN.md')).toBe('v2');
      await store.write('empty', '');
      expect(await store.read('empty')).toBe('');
      await store.close();
    });

    it('delete says whether there was a value, and the key reads null after it', async () => {
      const store = await harness.make();
      await store.write('todos.json', '[]');
      expect(await store.delete('todos.json')).toBe(true);
      expect(await store.delete('todos.json')).toBe(false);
      expect(await store.read('todos.json')).toBeNull();
      await store.close();
    });

    it('lists the keys that start with a prefix, sorted, each once', async () => {
      const store = await harness.make();
      expect(await store.list()).toEqual([]);
      for (const key of ['b.md', 'a-2.json', 'a-10.json', 'A.md', '_x', 'a-2.json'])
        await store.write(key, key);
      expect(await store.list()).toEqual(['A.md', '_x', 'a-10.json', 'a-2.json', 'b.md']);
      expect(await store.list('')).toEqual(['A.md', '_x', 'a-10.json', 'a-2.json', 'b.md']);
      expect(await store.list('a-')).toEqual(['a-10.json', 'a-2.json']);
      expect(await store.list('a-2.json')).toEqual(['a-2.json']);
      expect(await store.list('zzz')).toEqual([]);
      await store.delete('b.md');
      expect(await store.list()).toEqual(['A.md', '_x', 'a-10.json', 'a-2.json']);
      await store.close();
    });

    it('takes the longest key and refuses every key that is not a plain name, writing nothing', async () => {
      const store = await harness.make();
      const longest = 'k'.repeat(200);
      await store.write(longest, 'fits');
      expect(await store.read(longest)).toBe('fits');
      for (const key of BAD_KEYS) {
        const shown = typeof key === 'string' ? JSON.stringify(key.slice(0, 30)) : String(key);
        for (const operation of [
          () => store.write(key as string, 'x'),
          () => store.read(key as string),
          () => store.delete(key as string),
        ]) {
          const error = await refusal(operation());
          expect(error, shown).toBeInstanceOf(TypeError);
          expect(error.message, shown).toMatch(/^\w+\.(read|write|delete): (a|the) key /);
        }
        expect(() => store.locate(key as string), shown).toThrow(TypeError);
      }
      expect(await store.list()).toEqual([longest]);
      await store.close();
    });

    it('refuses a list prefix that no key could start with', async () => {
      const store = await harness.make();
      for (const prefix of ['../', '/', 'a/', '.', 'a\0', 'x'.repeat(201), 3]) {
        const error = await refusal(store.list(prefix as string));
        expect(error).toBeInstanceOf(TypeError);
        expect(error.message).toMatch(/list: (no key starts with|a prefix must be a string)/);
      }
      await store.close();
    });

    it('keeps values up to maxValueBytes, counted in UTF-8 bytes, and refuses larger ones unwritten', async () => {
      const store = await harness.make({ maxValueBytes: 10 });
      await store.write('ten', 'x'.repeat(10));
      expect(await store.read('ten')).toBe('x'.repeat(10));
      // Six characters, twelve bytes.
      const error = await refusal(store.write('twelve', 'é'.repeat(6)));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/the value for twelve is larger than 10 bytes, .*\(maxValueBytes\)/);
      for (const value of [42, null, undefined, { text: 'x' }, Buffer.from('x')]) {
        expect(await refusal(store.write('v', value as never))).toBeInstanceOf(TypeError);
      }
      expect(await store.list()).toEqual(['ten']);
      await store.close();
    });

    it('refuses a hostile size at once: a 16 MiB value under the default bound is not written', async () => {
      const store = await harness.make();
      const error = await refusal(store.write('huge', 'x'.repeat(16 * 1024 * 1024)));
      expect(error.message).toMatch(/larger than 4194304 bytes/);
      expect(await store.read('huge')).toBeNull();
      await store.close();
    });

    it('a read takes at most maxBytes, and refuses a larger value with a PlanStoreError (too-large)', async () => {
      const store = await harness.make();
      await store.write('PLAN.md', 'y'.repeat(31));
      expect(await store.read('PLAN.md', { maxBytes: 31 })).toBe('y'.repeat(31));
      const error = await storeRefusal(store.read('PLAN.md', { maxBytes: 30 }), 'too-large');
      expect(error.message).toMatch(/PLAN\.md .*30/);
      for (const options of [{ maxBytes: 0 }, { maxBytes: 1.5 }, { maxbytes: 3 }, 'big']) {
        expect(await refusal(store.read('PLAN.md', options as never))).toBeInstanceOf(TypeError);
      }
      await store.close();
    });

    it('refuses to list more than maxListKeys keys, and lists a narrower prefix', async () => {
      const store = await harness.make({ maxListKeys: 3 });
      for (const key of ['a1', 'a2', 'b1', 'b2']) await store.write(key, key);
      const error = await storeRefusal(store.list(), 'too-many');
      expect(error.message).toMatch(/more than 3 keys .*maxListKeys/);
      expect(await store.list('a')).toEqual(['a1', 'a2']);
      await store.close();
    });

    it('refuses bad options and unknown ones with a TypeError naming them', async () => {
      await expect(harness.make({ maxValueBytes: 0 })).rejects.toThrow(
        /maxValueBytes must be a positive integer, not number 0/,
      );
      await expect(harness.make({ maxListKeys: -1 })).rejects.toThrow(
        /maxListKeys must be a positive integer/,
      );
      await expect(harness.make({ maxValuBytes: 3 } as never)).rejects.toThrow(
        /unknown option "maxValuBytes"/,
      );
    });

    it('after close() every operation is refused (PlanStoreError closed); close() again is fine', async () => {
      const store = await harness.make();
      await store.write('PLAN.md', 'x');
      await store.close();
      await store.close();
      await storeRefusal(store.read('PLAN.md'), 'closed');
      await storeRefusal(store.write('PLAN.md', 'y'), 'closed');
      await storeRefusal(store.list(), 'closed');
      await storeRefusal(store.delete('PLAN.md'), 'closed');
    });

    it('locate() names where a key lives, for messages', async () => {
      const store = await harness.make();
      expect(store.locate('PLAN.md')).toMatch(/PLAN\.md$/);
      expect(store.description.length).toBeGreaterThan(0);
      await store.close();
    });

    if (harness.plant) {
      const plant = harness.plant;
      it('a stored value larger than the bound is refused unread, not parsed or returned', async () => {
        const store = await harness.make({ maxValueBytes: 1024 });
        await plant(store, 'PLAN.md', 'z'.repeat(5 * 1024 * 1024));
        await storeRefusal(store.read('PLAN.md'), 'too-large');
        await storeRefusal(store.read('PLAN.md', { maxBytes: 4096 }), 'too-large');
        await store.close();
      });

      it('lists only valid keys: names it holds that are not keys are passed over', async () => {
        const store = await harness.make();
        await store.write('PLAN.md', 'x');
        for (const raw of ['.PLAN.md.0a1b2c3d4e5f.tmp', 'with space', 'é.md', 'x'.repeat(220)]) {
          await plant(store, raw, 'hostile');
        }
        expect(await store.list()).toEqual(['PLAN.md']);
        await store.close();
      });
    }

    if (harness.plantNonText) {
      const plantNonText = harness.plantNonText;
      it('a key holding something other than text is refused, never read as text', async () => {
        const store = await harness.make();
        await plantNonText(store, 'PLAN.md');
        const error = await refusal(store.read('PLAN.md'));
        expect(isPlanStoreError(error)).toBe(true);
        expect(['not-a-file', 'wrong-type']).toContain((error as { kind?: unknown }).kind);
        expect(await store.list()).toEqual([]);
        await store.close();
      });
    }

    if (harness.links) {
      const links = harness.links;
      it('a key that is a symbolic link to a file outside is refused (read and write), and that file is left alone', async () => {
        const store = await harness.make();
        const outside = await links.outside();
        await links.writeOutside(outside, 'keep me');
        await links.plantLink(store, 'PLAN.md', outside);
        const read = await storeRefusal(store.read('PLAN.md'), 'link');
        expect(read.message).toMatch(/is a symbolic link; plan mode reads and writes only a regular file/);
        await storeRefusal(store.write('PLAN.md', 'overwrite?'), 'link');
        expect(await links.readOutside(outside)).toBe('keep me');
        expect(await store.list()).toEqual([]);
        // Delete removes the link itself, never what it leads to.
        expect(await store.delete('PLAN.md')).toBe(true);
        expect(await links.readOutside(outside)).toBe('keep me');
        await store.close();
      });

      it('a dangling link is refused without creating its target', async () => {
        const store = await harness.make();
        const outside = await links.outside();
        await links.plantLink(store, 'PLAN.md', outside);
        await storeRefusal(store.write('PLAN.md', 'x'), 'link');
        await expect(links.readOutside(outside)).rejects.toThrow(/ENOENT/);
        await store.close();
      });

      it('a hard link to a file outside is replaced, not written through', async () => {
        const store = await harness.make();
        const outside = await links.outside();
        await links.writeOutside(outside, 'keep me');
        await links.plantHardLink(store, 'PLAN.md', outside);
        await store.write('PLAN.md', 'the plan');
        expect(await links.readOutside(outside)).toBe('keep me');
        expect(await store.read('PLAN.md')).toBe('the plan');
        await store.close();
      });
    }
  });
}
