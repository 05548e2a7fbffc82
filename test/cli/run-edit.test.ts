/**
 * `plan run --mode lazy` on a terminal: `e` at the plan's prompt edits the plan in `$EDITOR`.
 * The editor here is a real process: a node script that writes the next of its scripted edits
 * over the file it is given (and notes the file's mode and first text), as a person would.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { editorCommand } from '../../src/cli/approvals/index.js';
import { tempDir } from './helpers.js';

const TOOLS = `
import { appendFileSync } from 'node:fs';
const log = (tool, args) =>
  appendFileSync(new URL('./calls.log', import.meta.url), JSON.stringify({ tool, args }) + '\\n');
export const tools = [
  {
    name: 'processPayment',
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'], additionalProperties: false },
    execute: async (args) => { log('processPayment', args); return { ok: true }; },
  },
];
`;

/** Writes edits.json[n] over the file (n counted in count.txt), and notes what it was given. */
const EDITOR = `
import { readFileSync, writeFileSync, statSync, existsSync, appendFileSync } from 'node:fs';
const file = process.argv[2];
const here = new URL('.', import.meta.url);
const countFile = new URL('./count.txt', here);
const n = existsSync(countFile) ? Number(readFileSync(countFile, 'utf8')) : 0;
writeFileSync(countFile, String(n + 1));
appendFileSync(new URL('./seen.log', here), JSON.stringify({ mode: statSync(file).mode & 0o777, text: readFileSync(file, 'utf8') }) + '\\n');
const edits = JSON.parse(readFileSync(new URL('./edits.json', here), 'utf8'));
writeFileSync(file, edits[n]);
`;

const PLAN = { type: 'plan', mode: 'lazy', plan: [{ _id: 'pay', _tool: 'processPayment', amount: 500 }] };
const GOOD = JSON.stringify([{ _id: 'pay', _tool: 'processPayment', amount: 50 }], null, 2);
const BAD = '[\n  { "_id": "pay", "_tool": "processPayment", "amont": 50 }\n]\n';

const { dir, cleanup } = tempDir({ 'tools.mjs': TOOLS, 'editor.mjs': EDITOR, 'pay.json': PLAN });
afterAll(cleanup);
beforeEach(() => {
  for (const name of ['calls.log', 'count.txt', 'seen.log', 'edits.json'])
    rmSync(join(dir, name), { force: true });
});

const paid = () =>
  existsSync(join(dir, 'calls.log'))
    ? readFileSync(join(dir, 'calls.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { args: unknown }).args)
    : [];
const seen = () =>
  readFileSync(join(dir, 'seen.log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { mode: number; text: string });

async function inTerminal(answers: string, edits: string[]) {
  writeFileSync(join(dir, 'edits.json'), JSON.stringify(edits));
  const out = { stdout: '', stderr: '' };
  const io = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { isTTY: true, columns: 100, rows: 30, write: (text: string) => (out.stderr += text) },
    stdin: Object.assign(Readable.from([answers]), { isTTY: true }),
    env: { NO_COLOR: '1', TERM: 'dumb', EDITOR: `'${process.execPath}' '${join(dir, 'editor.mjs')}'` },
  };
  const code = await main(
    ['run', join(dir, 'pay.json'), '--tools', join(dir, 'tools.mjs'), '--mode', 'lazy'],
    io,
  );
  return { code, err: out.stderr };
}

describe('plan run --mode lazy: editing the plan in $EDITOR at the prompt', () => {
  it('runs the plan as the editor left it, and says so', async () => {
    const r = await inTerminal('e\n', [GOOD]);
    expect(r.err).toContain('Run this plan? [y/N/e(dit)] ');
    expect(r.code).toBe(0);
    expect(paid()).toEqual([{ amount: 50 }]);
    expect(r.err).toContain('ran the plan as edited at approval');
    // The editor got the plan file's text, in a file only its owner can read.
    const [first] = seen();
    expect(JSON.parse(first!.text)).toEqual(PLAN);
    expect(first!.mode).toBe(0o600);
  });

  it('shows an edit’s errors with line and column, and asks again from the edited text', async () => {
    const r = await inTerminal('e\ne\n', [BAD, GOOD]);
    expect(r.code).toBe(0);
    expect(r.err).toContain('The edited plan does not compile:');
    expect(r.err).toMatch(/edited plan:2:\d+: error E_\w+: .*amont/);
    expect(r.err.match(/Run this plan\? \[y\/N\/e\(dit\)\] /g)).toHaveLength(2);
    // The second edit started from the first one's text, not the file's.
    expect(seen()[1]!.text).toBe(BAD);
    expect(paid()).toEqual([{ amount: 50 }]);
  });

  it('a no after a bad edit runs nothing', async () => {
    const r = await inTerminal('e\nn\n', [BAD]);
    expect(r.code).toBe(4);
    expect(paid()).toEqual([]);
  });
});

describe('editorCommand', () => {
  it('takes $EDITOR, then $VISUAL, then vi, split into words without a shell', () => {
    expect(editorCommand({ EDITOR: "code --wait 'a b'" })).toEqual(['code', '--wait', 'a b']);
    expect(editorCommand({ VISUAL: 'nano' })).toEqual(['nano']);
    expect(editorCommand({ EDITOR: ' ', VISUAL: undefined })).toEqual(['vi']);
  });
});
