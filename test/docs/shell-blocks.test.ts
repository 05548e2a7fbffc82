/**
 * How shown-commands.test.ts reads a page: which blocks run, which are skipped and why, and what
 * the shown output's `…` stands for. A block with a command line is never silently left out.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchesShown, normalise } from './output-match.js';
import { cliArgs, shellBlocks } from './shell-blocks.js';

function page(text: string): ReturnType<typeof shellBlocks> {
  const root = mkdtempSync(join(tmpdir(), 'shell-blocks-'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs/page.md'), text);
  return shellBlocks(root, 'docs/page.md');
}

describe('reading the command lines of a page', () => {
  it('a plain or sh block of plan commands runs unless a marker says why not', () => {
    const blocks = page(
      [
        '```sh',
        'plan run plan.json --tools tools.mjs',
        '```',
        '',
        "<!-- not run: needs a model's API key -->",
        '',
        '```',
        'plan agent "task" --model openai:gpt-4o',
        '```',
      ].join('\n'),
    );
    expect(blocks.map((b) => [b.where, b.kind, b.notRun])).toEqual([
      ['docs/page.md:1', 'commands', undefined],
      ['docs/page.md:7', 'commands', "needs a model's API key"],
    ]);
  });

  it('a session pairs each prompt with the lines up to the next; usage lines are a synopsis', () => {
    const blocks = page(
      [
        '<!-- run in: fixtures -->',
        '```',
        '$ plan validate a.json \\',
        '    --tools "my tools.json"',
        'a.json: valid',
        '',
        '$ $EDITOR a.json',
        '```',
        '```',
        'plan eval --gold DIR --predicted DIR [--seed N]',
        '```',
        '```text',
        'plan text ─▶ document',
        '```',
      ].join('\n'),
    );
    expect(blocks).toEqual([
      {
        where: 'docs/page.md:2',
        kind: 'session',
        notRun: undefined,
        runIn: 'fixtures',
        commands: [
          {
            line: 'plan validate a.json --tools "my tools.json"',
            args: ['validate', 'a.json', '--tools', 'my tools.json'],
            output: 'a.json: valid',
          },
          { line: '$EDITOR a.json', args: undefined, output: '' },
        ],
      },
      { where: 'docs/page.md:9', kind: 'synopsis', notRun: undefined, runIn: undefined, commands: [] },
    ]);
  });

  it('reads every way the pages call the CLI, and quotes as sh does', () => {
    expect(cliArgs('node bin/plan.js run p.json')).toEqual(['run', 'p.json']);
    expect(cliArgs('npx plan graph p.json  # draws it')).toEqual(['graph', 'p.json']);
    expect(cliArgs(`plan agent 'it''s' "a \\"b\\""`)).toEqual(['agent', 'its', 'a "b"']);
    expect(cliArgs('npm test')).toBeUndefined();
  });
});

describe('comparing shown output', () => {
  it('normalises times, dates, ...Ms figures, ports, hex ids and folders', () => {
    const printed =
      '/tmp/x/a.json: run succeeded in 91ms, 1.5 s, 12µs {"durationMs":75,"at":"2026-01-02T03:04:05.678Z"} ' +
      'http://127.0.0.1:40123 journal 3fa9c2d41b0e77aa.jsonl';
    expect(normalise(printed, { folders: ['/tmp/x'] })).toBe(
      '<dir>/a.json: run succeeded in <time>, <time>, <time> {"durationMs":<n>,"at":"<date>"} ' +
        'http://127.0.0.1:<port> journal <id>.jsonl',
    );
    expect(normalise('3 calls, 2 scenarios, 85 sample(s)')).toBe('3 calls, 2 scenarios, 85 sample(s)');
  });

  it('a line of … stands for any lines, … in a line for any text; everything else is exact', () => {
    expect(matchesShown('a\n…\nd', 'a\nb\nc\nd')).toBe(true);
    expect(matchesShown('a\n…\nd', 'a\nd')).toBe(true);
    expect(matchesShown('{"x":{…},"y":1}', '{"x":{"deep":[1]},"y":1}')).toBe(true);
    expect(matchesShown('a\nb', 'a\nb\nc')).toBe(false);
    expect(matchesShown('a\n…', 'b\nc')).toBe(false);
    expect(matchesShown('x…y…z', 'xzy')).toBe(false);
  });
});
