/**
 * Every command line README.md and docs/*.md show is run, in this process, and prints what the
 * page shows (see shell-blocks.ts for how blocks are read and marked, output-match.ts for what
 * is normalised). A block that cannot run here says why in a `<!-- not run: ... -->` marker;
 * any other block with a command line runs, so a page cannot drift from the CLI unnoticed.
 *
 * Commands run from a scratch folder whose folders link to the repository's, so paths read as
 * the pages show them and the files a command writes (`--out gold`, `--report x.html`) land in
 * the scratch folder.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ROOT } from '../cli/helpers.js';
import { matchesShown, normalise } from './output-match.js';
import { pages, shellBlocks, type ShellBlock, type ShownCommand } from './shell-blocks.js';

let scratch = '';

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'shown-commands-'));
  // Folders only: a file a command appends to (the agent example's prices.log) is made in the
  // scratch folder, never through a link into the repository.
  for (const entry of readdirSync(ROOT))
    if (entry !== '.git' && statSync(join(ROOT, entry)).isDirectory())
      symlinkSync(join(ROOT, entry), join(scratch, entry));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `plan <args>` through main(), stdout and stderr in one text in the order they were written. */
async function plan(
  args: readonly string[],
  cwd: string,
): Promise<{ code: number; output: string; stdout: string }> {
  let output = '';
  let stdout = '';
  const previous = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main(args, {
      stdout: {
        write: (text: string) => {
          stdout += text;
          output += text;
        },
      },
      stderr: { isTTY: false, write: (text: string) => (output += text) },
      stdin: Readable.from(['']),
      env: {},
    });
    return { code, output, stdout };
  } finally {
    process.chdir(previous);
  }
}

async function check(block: ShellBlock, command: ShownCommand): Promise<void> {
  if (command.args === undefined)
    throw new Error(
      `${block.where}: '${command.line}' is not a plan command; run only plan commands in a shown block, or mark it <!-- not run: why -->`,
    );
  const result = await plan(command.args, join(scratch, block.runIn ?? '.'));
  const folders = [scratch, ROOT];
  // A session shows what a terminal shows; an `output of` block what the command writes to stdout.
  const printed = normalise(block.kind === 'output' ? result.stdout : result.output, { folders });
  const code = result.code;
  if (command.output === undefined) {
    expect({ command: command.line, code, output: printed }).toEqual({
      command: command.line,
      code: 0,
      output: expect.anything() as unknown,
    });
    return;
  }
  const shown = normalise(command.output, { folders });
  // On a mismatch, the comparison shows the two texts side by side.
  if (!matchesShown(shown, printed))
    expect(`$ ${command.line}\n${printed}`).toBe(`$ ${command.line}\n${shown}`);
}

const blocks = pages(ROOT).flatMap((page) => shellBlocks(ROOT, page));

describe('the command lines README.md and docs/ show', () => {
  it('are found (the reader sees the pages)', () => {
    const kinds = new Set(blocks.map((block) => block.kind));
    expect([...kinds].sort()).toEqual(['commands', 'output', 'session', 'synopsis']);
  });

  it('each not-run marker gives its reason', () => {
    for (const block of blocks.filter((b) => b.notRun !== undefined))
      expect(block.notRun, block.where).toMatch(/\w+ \w+/);
  });

  for (const block of blocks) {
    if (block.kind === 'synopsis' || block.notRun !== undefined) continue;
    it(`${block.where} prints what it shows`, async () => {
      for (const command of block.commands) await check(block, command);
    });
  }
});
