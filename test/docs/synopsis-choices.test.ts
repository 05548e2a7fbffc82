/**
 * The choices the README's and docs/cli.md's synopsis give a flag (`--format a|b|c`) are the
 * ones `plan <command> --help` lists for it (`(choices: "a", "b", "c")`), in the same order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';
import { planInProcess } from '../cli/in-process.js';

/** `plan <command>` -> flag -> the choices its synopsis line spells `--flag a|b`. */
function synopsisChoices(page: string): Map<string, Map<string, string[]>> {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const start = text.indexOf('```\nplan validate');
  const block = text.slice(start + 4, text.indexOf('\n```', start + 4));
  const commands = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const line of block.split('\n')) {
    const head = /^plan ([a-z-]+) /.exec(line);
    if (head) current = head[1]!.startsWith('-') ? undefined : new Map();
    if (head && current) commands.set(head[1]!, current);
    for (const m of line.matchAll(/(--[a-z][a-z-]*) ([a-z][a-z-]*(?:\|[a-z][a-z-]*)+)/g)) {
      current?.set(m[1]!, m[2]!.split('|'));
    }
  }
  return commands;
}

/** The flags of `plan <command> --help` that list choices, with them. */
async function helpChoices(command: string): Promise<Map<string, string[]>> {
  const help = (await planInProcess([command, '--help'])).stdout.replace(/\s+/g, ' ');
  const choices = new Map<string, string[]>();
  for (const option of help.split(/ (?=--[a-z][a-z-]* <)/)) {
    const flag = /^--[a-z][a-z-]*/.exec(option)?.[0];
    const listed = /\(choices: ([^)]*)\)/.exec(option)?.[1];
    if (flag && listed)
      choices.set(
        flag,
        [...listed.matchAll(/"([^"]*)"/g)].map((m) => m[1]!),
      );
  }
  return choices;
}

describe('the choices in the synopsis of README.md and docs/cli.md', () => {
  for (const page of ['README.md', 'docs/cli.md']) {
    it(`${page}: every flag written --flag a|b has the choices of plan <command> --help`, async () => {
      const drift: string[] = [];
      for (const [command, flags] of synopsisChoices(page)) {
        const help = await helpChoices(command);
        for (const [flag, listed] of flags) {
          const expected = help.get(flag);
          if (expected && expected.join('|') !== listed.join('|')) {
            drift.push(
              `plan ${command} ${flag}: ${listed.join('|')} in ${page}, ${expected.join('|')} in --help`,
            );
          }
        }
      }
      expect(drift).toEqual([]);
    });
  }
});
