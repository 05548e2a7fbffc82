import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FolderStrategy,
  OpenedFolder,
  OutsideFolderError,
} from '../../src/agent/plan-store/opened-folder.js';

let root: string;
const opened: OpenedFolder[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'planmode-folder-'));
});
afterEach(() => {
  for (const folder of opened.splice(0)) folder.close();
  rmSync(root, { recursive: true, force: true });
});

function openFolder(path: string, strategy?: FolderStrategy): OpenedFolder {
  const folder = new OpenedFolder(path, strategy ? { strategy } : {});
  opened.push(folder);
  return folder;
}

async function writeEntry(folder: OpenedFolder, name: string, content: string): Promise<void> {
  await folder.hold(async () => {
    const handle = await folder.create(`.${name}.tmp`, 0o644);
    await handle.writeFile(content);
    await handle.close();
    await folder.rename(`.${name}.tmp`, name);
    await folder.sync();
  });
}

async function readEntry(folder: OpenedFolder, name: string): Promise<string> {
  return folder.hold(async () => {
    const handle = await folder.openToRead(name);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  });
}

async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a rejection');
}

describe('OpenedFolder: opening', () => {
  it('creates a missing folder with its parents, and uses /proc/self/fd on Linux', () => {
    const folder = openFolder(join(root, 'a', 'b', 'plans'));
    expect(folder.strategy).toBe(process.platform === 'linux' ? 'proc' : 'checked');
    expect(spawnSync('test', ['-d', join(root, 'a', 'b', 'plans')]).status).toBe(0);
  });

  it('a path that is a file is an error with the system code, and nothing stays open', async () => {
    await writeFile(join(root, 'file'), 'x');
    expect(() => new OpenedFolder(join(root, 'file'))).toThrow(
      expect.objectContaining({ code: expect.stringMatching(/^(EEXIST|ENOTDIR)$/) }),
    );
  });

  it('a bad strategy is a TypeError naming it', () => {
    expect(() => new OpenedFolder(join(root, 'plans'), { strategy: 'openat' as never })).toThrow(
      /strategy must be 'proc' or 'checked', not "openat"/,
    );
  });

  it("an existing link to a folder is the caller's choice: the folder it leads to is opened", async () => {
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'link'));
    const folder = openFolder(join(root, 'link'));
    await writeEntry(folder, 'PLAN.md', 'via the link');
    expect(await readdir(join(root, 'real'))).toEqual(['PLAN.md']);
  });
});

for (const strategy of ['proc', 'checked'] as const) {
  describe(`OpenedFolder, ${strategy} strategy`, () => {
    it('creates, renames over, reads and removes entries', async () => {
      const folder = openFolder(join(root, 'plans'), strategy);
      expect(folder.strategy).toBe(strategy);
      await writeEntry(folder, 'PLAN.md', 'one');
      await writeEntry(folder, 'PLAN.md', 'two');
      expect(await readEntry(folder, 'PLAN.md')).toBe('two');
      expect(await readdir(join(root, 'plans'))).toEqual(['PLAN.md']);
      await folder.hold(() => folder.remove('PLAN.md'));
      await folder.hold(() => folder.remove('PLAN.md'));
      expect(await readdir(join(root, 'plans'))).toEqual([]);
    });

    it('never creates over an existing entry, and never opens an entry that is a link', async () => {
      const folder = openFolder(join(root, 'plans'), strategy);
      await writeFile(join(root, 'secret'), 'keep');
      await symlink(join(root, 'secret'), join(root, 'plans', 'PLAN.md'));
      expect((await rejection(folder.hold(() => folder.create('PLAN.md', 0o644)))).code).toBe('EEXIST');
      expect((await rejection(folder.hold(() => folder.openToRead('PLAN.md')))).code).toBe('ELOOP');
      const stats = await folder.hold(() => folder.lstat('PLAN.md'));
      expect(stats?.isSymbolicLink()).toBe(true);
      expect(await folder.hold(() => folder.lstat('missing'))).toBeUndefined();
      expect(await readFile(join(root, 'secret'), 'utf8')).toBe('keep');
    });

    it('says where its name leads once the folder is moved and a link put in its place', async () => {
      const folder = openFolder(join(root, 'plans'), strategy);
      expect(await folder.whereNameLeads()).toBeUndefined();
      await rename(join(root, 'plans'), join(root, 'moved'));
      expect(await folder.whereNameLeads()).toBeNull();
      await mkdir(join(root, 'outside'));
      await symlink(join(root, 'outside'), join(root, 'plans'));
      expect(await folder.whereNameLeads()).toBe(join(root, 'outside'));
    });
  });
}

describe('OpenedFolder: a folder swapped for a link to elsewhere', () => {
  async function swapped(strategy: FolderStrategy) {
    const folder = openFolder(join(root, 'plans'), strategy);
    await rename(join(root, 'plans'), join(root, 'moved'));
    await mkdir(join(root, 'outside'));
    await symlink(join(root, 'outside'), join(root, 'plans'));
    return folder;
  }

  it('proc: entries still go into the folder that was opened', async () => {
    const folder = await swapped('proc');
    await writeEntry(folder, 'PLAN.md', 'inside');
    expect(await readdir(join(root, 'outside'))).toEqual([]);
    expect(await readFile(join(root, 'moved', 'PLAN.md'), 'utf8')).toBe('inside');
  });

  it('checked: the entry opened outside is refused and removed', async () => {
    const folder = await swapped('checked');
    const error = await rejection(folder.hold(() => folder.create('.tmp', 0o644)));
    expect(error).toBeInstanceOf(OutsideFolderError);
    expect(error.message).toMatch(/no longer leads to the folder opened as .*plans/);
    expect(await readdir(join(root, 'outside'))).toEqual([]);
    await writeFile(join(root, 'outside', 'PLAN.md'), 'theirs');
    expect(await rejection(folder.hold(() => folder.openToRead('PLAN.md')))).toBeInstanceOf(
      OutsideFolderError,
    );
    expect(await rejection(folder.hold(() => folder.rename('PLAN.md', 'x')))).toBeInstanceOf(
      OutsideFolderError,
    );
    expect(await readdir(join(root, 'outside'))).toEqual(['PLAN.md']);
  });
});

describe('OpenedFolder: closing', () => {
  it('a close during a held operation waits for it; afterwards nothing is reachable', async () => {
    const folder = openFolder(join(root, 'plans'));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = folder.hold(async () => {
      await gate;
      const handle = await folder.create('late', 0o644);
      await handle.close();
    });
    folder.close();
    folder.close();
    expect(folder.closed).toBe(true);
    release();
    await held;
    expect(await readdir(join(root, 'plans'))).toEqual(['late']);
    const error = await rejection(folder.hold(async () => undefined));
    expect(error).toBeInstanceOf(OutsideFolderError);
    expect(error.message).toMatch(/was closed/);
    await expect(folder.create('after', 0o644)).rejects.toThrow(/was closed/);
  });
});
