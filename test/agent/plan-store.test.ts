/**
 * The plan stores that need no server: the local folder (through /proc/self/fd, and by its
 * checked real path as on systems without /proc) and memory, each against the one contract
 * (plan-store-contract.ts); then what only the folder has: its name moved away, a folder
 * under a key's name, the folder given as a path that cannot be one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LocalFolderStore, MemoryPlanStore, type PlanStore } from '../../src/agent/index.js';
import { isPlanStoreError } from '../../src/index.js';
import { describePlanStoreContract, type StoreBounds } from './plan-store-contract.js';

const root = mkdtempSync(join(tmpdir(), 'planmode-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let count = 0;
const fresh = () => join(root, `s${++count}`);

const open: PlanStore[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

function localHarness(strategy: 'proc' | 'checked') {
  return {
    make: async (bounds: StoreBounds = {}) => {
      const store = new LocalFolderStore({ dir: fresh(), strategy, ...bounds });
      open.push(store);
      return store;
    },
    plant: async (store: PlanStore, rawName: string, text: string) => {
      await writeFile(join((store as LocalFolderStore).path, rawName), text);
    },
    plantNonText: async (store: PlanStore, key: string) => {
      await mkdir(join((store as LocalFolderStore).path, key));
    },
    links: {
      outside: async () => {
        const dir = fresh();
        await mkdir(dir);
        return join(dir, 'secret.txt');
      },
      plantLink: (store: PlanStore, key: string, target: string) =>
        symlink(target, join((store as LocalFolderStore).path, key)),
      plantHardLink: (store: PlanStore, key: string, target: string) =>
        link(target, join((store as LocalFolderStore).path, key)),
      readOutside: (path: string) => readFile(path, 'utf8'),
      writeOutside: (path: string, text: string) => writeFile(path, text),
    },
  };
}

describePlanStoreContract('LocalFolderStore (proc)', localHarness('proc'));
describePlanStoreContract('LocalFolderStore (checked)', localHarness('checked'));
describePlanStoreContract('MemoryPlanStore', {
  make: async (bounds: StoreBounds = {}) => new MemoryPlanStore(bounds),
});

describe('LocalFolderStore: the folder', () => {
  it('keeps each key as a regular file of that name in the folder, and nothing else once written', async () => {
    const dir = fresh();
    const store = new LocalFolderStore({ dir });
    open.push(store);
    await store.write('PLAN.md', 'the plan');
    await store.write('todos.json', '[]');
    expect((await readdir(dir)).sort()).toEqual(['PLAN.md', 'todos.json']);
    expect(await readFile(join(dir, 'PLAN.md'), 'utf8')).toBe('the plan');
    expect(store.locate('PLAN.md')).toBe(join(dir, 'PLAN.md'));
    expect(store.description).toBe(`the folder ${dir}`);
  });

  it('refuses every operation once the folder is moved away, and writes nothing where it went', async () => {
    const dir = fresh();
    const store = new LocalFolderStore({ dir });
    open.push(store);
    await store.write('PLAN.md', 'first');
    const moved = fresh();
    await rename(dir, moved);
    for (const operation of [
      () => store.write('PLAN.md', 'second'),
      () => store.read('PLAN.md'),
      () => store.list(),
      () => store.delete('PLAN.md'),
    ]) {
      const error = await operation().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isPlanStoreError(error) && error.kind).toBe('moved');
      expect((error as Error).message).toMatch(
        /plans directory .* was moved or removed after plan mode opened it/,
      );
    }
    expect(await readFile(join(moved, 'PLAN.md'), 'utf8')).toBe('first');
  });

  it('a folder under a key is not a value: read and write are refused (not-a-file) and delete leaves it', async () => {
    const dir = fresh();
    const store = new LocalFolderStore({ dir });
    open.push(store);
    await mkdir(join(dir, 'PLAN.md'));
    for (const operation of [
      () => store.read('PLAN.md'),
      () => store.write('PLAN.md', 'x'),
      () => store.delete('PLAN.md'),
    ]) {
      const error = await operation().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isPlanStoreError(error) && error.kind).toBe('not-a-file');
    }
    expect(await readdir(dir)).toEqual(['PLAN.md']);
  });

  it('refuses a dir that cannot be a folder, and bad options, with a TypeError naming them', async () => {
    const file = join(fresh());
    await writeFile(file, 'not a folder');
    expect(() => new LocalFolderStore({ dir: join(file, 'plans') })).toThrow(
      /LocalFolderStore: dir ".*" cannot be created and opened as a folder \(ENOTDIR: .*\); give a directory path you can write to/,
    );
    expect(() => new LocalFolderStore({ dir: '' })).toThrow(/dir must be a directory path, not ""/);
    expect(() => new LocalFolderStore({ dir: 'a\0b' })).toThrow(TypeError);
    expect(() => new LocalFolderStore(undefined as never)).toThrow(
      /options must be an object like \{ dir: 'plans' \}/,
    );
    expect(() => new LocalFolderStore({ dir: fresh(), strategy: 'fast' as never })).toThrow(
      /strategy must be 'proc' or 'checked'/,
    );
  });
});
