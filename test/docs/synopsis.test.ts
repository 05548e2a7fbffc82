/**
 * The README's and docs/cli.md's synopsis list what `plan --help` and each `plan <command>
 * --help` list: the same commands, each command's flags (no more, no fewer), and the README the
 * same exit codes as the ExitCode table and `plan --help`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { ROOT } from '../cli/helpers.js';
import { planInProcess } from '../cli/in-process.js';

/** The first ``` block that starts with `plan validate`, by command: the flags its lines name. */
function synopsis(page: string): Map<string, Set<string>> {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const start = text.indexOf('```\nplan validate');
  const block = text.slice(start + 4, text.indexOf('\n```', start + 4));
  const commands = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  for (const line of block.split('\n')) {
    const head = /^plan ([a-z-]+) /.exec(line);
    // `plan --version | plan --help | ...` ends the commands.
    if (head) current = head[1]!.startsWith('-') ? undefined : new Set();
    if (head && current) commands.set(head[1]!, current);
    for (const flag of line.matchAll(/--[a-z][a-z-]*/g)) current?.add(flag[0]);
  }
  return commands;
}

/** The commands `plan --help` lists. */
async function commands(): Promise<string[]> {
  const help = (await planInProcess(['--help'])).stdout;
  const section = help.slice(help.indexOf('Commands:'), help.indexOf('Exit codes:'));
  return [...section.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!).filter((name) => name !== 'help');
}

/** The flags `plan <command> --help` lists (--help itself aside). */
async function flagsOf(command: string): Promise<string[]> {
  const help = (await planInProcess([command, '--help'])).stdout;
  const options = help.slice(help.indexOf('Options:'));
  return [...options.matchAll(/^ {2}(?:-[a-zA-Z], )?(--[a-z][a-z-]*)/gm)]
    .map((m) => m[1]!)
    .filter((flag) => flag !== '--help');
}

describe('the synopsis in README.md and docs/cli.md', () => {
  for (const page of ['README.md', 'docs/cli.md']) {
    it(`${page}: every command and every flag of plan --help, and nothing else`, async () => {
      const listed = synopsis(page);
      const named = await commands();
      expect([...listed.keys()].sort()).toEqual([...named].sort());
      const drift: string[] = [];
      for (const command of named) {
        const flags = await flagsOf(command);
        const shown = listed.get(command) ?? new Set<string>();
        for (const flag of flags)
          if (!shown.has(flag)) drift.push(`plan ${command} ${flag}: in --help, not in ${page}`);
        for (const flag of shown)
          if (!flags.includes(flag)) drift.push(`plan ${command} ${flag}: in ${page}, not in --help`);
      }
      expect(drift).toEqual([]);
    });
  }

  it("every command's --help ends with its exit codes, 0 and 70 among them", async () => {
    const missing: string[] = [];
    for (const command of await commands()) {
      const help = (await planInProcess([command, '--help'])).stdout;
      const section = help.slice(help.search(/^Exit codes\b/m));
      const codes = [...section.matchAll(/^ {2}(\d+) /gm)].map((m) => m[1]);
      if (!/^Exit codes\b/m.test(help) || !codes.includes('0') || !codes.includes('70'))
        missing.push(`plan ${command} --help: ${codes.join(', ') || 'no exit codes'}`);
    }
    expect(missing).toEqual([]);
  });

  it('README.md and plan --help give every exit code of the ExitCode table', async () => {
    const codes = Object.values(ExitCode)
      .map(String)
      .sort((a, b) => Number(a) - Number(b));
    const help = (await planInProcess(['--help'])).stdout;
    const section = help.slice(
      help.indexOf('Exit codes:'),
      help.indexOf('\n\n', help.indexOf('Exit codes:')),
    );
    expect([...section.matchAll(/^ {2}(\d+) /gm)].map((m) => m[1])).toEqual(codes);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const sentence = readme.slice(readme.indexOf('Exit codes: 0'), readme.indexOf('Every flag is in'));
    expect([...sentence.matchAll(/(?<=[:,]\s)(\d+) /g)].map((m) => m[1])).toEqual(codes);
  });
});
