/**
 * A journal opens only regular files (issue 29: "a character device at the journal's name is
 * read forever"): `--journal /dev/zero`, a link to /dev/zero or a character device at the
 * journal's name or its lock's are refused at once with a line saying what to remove, and one
 * among the folder's other journals is passed over by a resume looking for an earlier version.
 * Every open is O_NOFOLLOW | O_NONBLOCK and checked with fstat, so nothing here can block: the
 * test's timeout is the guard, no wall time is asserted.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, type Tool } from '../../src/index.js';
import { expectUsageError, runPlan, tempDir } from '../cli/helpers.js';

const { dir, cleanup } = tempDir({
  'tools.mjs': `export const tools = [{ name: 'echo', execute: (args) => args.v }];`,
  'plan.json': [{ _id: 'a', _tool: 'echo', v: 1, _outputPath: '†state.a' }],
});
afterAll(cleanup);

const PLAN = [{ _id: 'a', _tool: 'echo', v: 1, _outputPath: '†state.a' }];
const tools: Tool[] = [{ name: 'echo', execute: (args) => args.v }];

/** Creating a character device takes root (mknod): elsewhere those cases are skipped. */
const ROOT = process.getuid?.() === 0;

/** The journal file name the CLI uses for plan.json, from a first run. */
function journalName(journal: string): string {
  expect(
    runPlan(['run', 'plan.json', '--tools', 'tools.mjs', '--journal', journal, '--json'], { cwd: dir }).code,
  ).toBe(0);
  const [name] = readdirSync(journal).filter((file) => file.endsWith('.jsonl'));
  return name!;
}

/** Puts a link to /dev/zero, or the device itself, at `path`. */
function zeroAt(path: string, kind: 'link' | 'device'): void {
  rmSync(path, { force: true });
  if (kind === 'link') symlinkSync('/dev/zero', path);
  else expect(spawnSync('mknod', [path, 'c', '1', '5']).status).toBe(0);
}

describe('a journal opens only regular files', () => {
  it('--journal /dev/zero: exit 2, one line, nothing read', () => {
    const result = runPlan(['run', 'plan.json', '--tools', 'tools.mjs', '--journal', '/dev/zero'], {
      cwd: dir,
    });
    expectUsageError(
      result,
      /cannot create the journal directory '\/dev\/zero': a part of the path is a file, not a directory; choose another journal directory/,
    );
  });

  const kinds = [
    ['a link to /dev/zero', 'link', /it is a symbolic link, which a journal never follows/],
    ['a character device', 'device', /it is not a regular file \(a FIFO, a device or a socket\); remove it/],
  ] as const;

  for (const [what, kind, message] of kinds) {
    it.skipIf(kind === 'device' && !ROOT)(
      `${what} at the journal's name: refused with or without --resume`,
      () => {
        const journal = join(dir, `journal-${kind}`);
        const name = journalName(journal);
        zeroAt(join(journal, name), kind);
        for (const resume of [['--resume'], []]) {
          const result = runPlan(
            ['run', 'plan.json', '--tools', 'tools.mjs', '--journal', journal, ...resume],
            {
              cwd: dir,
            },
          );
          expectUsageError(result, message);
        }
      },
    );

    it.skipIf(kind === 'device' && !ROOT)(
      `${what} at the lock's name: refused, saying what to remove`,
      async () => {
        const journal = join(dir, `lock-${kind}`);
        const name = journalName(journal);
        zeroAt(join(journal, name.replace(/\.jsonl$/, '.lock')), kind);
        const result = runPlan(
          ['run', 'plan.json', '--tools', 'tools.mjs', '--journal', journal, '--resume'],
          {
            cwd: dir,
          },
        );
        expectUsageError(result, /cannot read the lock '.*\.lock' of the journal '.*': /);
      },
    );

    it.skipIf(kind === 'device' && !ROOT)(
      `${what} among the folder's journals is passed over by a resume of an edited plan`,
      async () => {
        const journal = join(dir, `earlier-${kind}`);
        mkdirSync(journal);
        zeroAt(join(journal, 'other.jsonl'), kind);
        const result = await run(PLAN, { tools, journal, resume: true });
        expect(result.status).toBe('succeeded');
        expect(result.state).toEqual({ a: 1 });
      },
    );
  }
});
