/**
 * One process at a time per journal, between real processes (issue 29): while one `plan run`
 * holds a journal (its first call waits on a FIFO this test controls), a second `--resume` of it
 * is refused with exit 2 and runs nothing, and a fresh run without `--resume` is refused too and
 * leaves the journal as it was. The holder then finishes: every call ran once.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, openSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runPlan, tempDir } from '../cli/helpers.js';

const { dir, cleanup } = tempDir({});
afterAll(cleanup);

const LOG = join(dir, 'calls.log');
const READY = join(dir, 'ready.fifo');
const GO = join(dir, 'go.fifo');
const JOURNAL = join(dir, 'journal');

const TOOLS = `
import { appendFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
const log = (line) => appendFileSync(${JSON.stringify(LOG)}, process.pid + ' ' + line + '\\n');
export const tools = [
  {
    name: 'gate',
    async execute() {
      log('gate');
      // Blocks until the test reads: then it knows the journal is held.
      writeFileSync(${JSON.stringify(READY)}, 'held\\n');
      // Waits until the test writes: the holder runs on only then.
      await readFile(${JSON.stringify(GO)});
      return 'open';
    },
  },
  { name: 'charge', execute: (args) => { log('charge ' + args.n); return args.n; } },
];
`;

const PLAN = [
  { _id: 'gate', _tool: 'gate', _outputPath: '†state.gate' },
  ...[2, 3, 4, 5].map((n) => ({
    _id: `c${n}`,
    _tool: 'charge',
    n,
    after: '†state.gate',
    _outputPath: `†state.c${n}`,
  })),
];

function write(name: string, text: string): void {
  spawnSync('sh', ['-c', `cat > "$1"`, 'sh', join(dir, name)], { input: text });
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

function journalFile(): string {
  const [name] = readdirSync(JOURNAL).filter((file) => file.endsWith('.jsonl'));
  return join(JOURNAL, name!);
}

describe('a journal held by a running plan run', () => {
  it('refuses a second --resume (exit 2, nothing runs) and a fresh run (exit 2, nothing emptied)', async () => {
    write('tools.mjs', TOOLS);
    write('plan.json', JSON.stringify(PLAN));
    for (const fifo of [READY, GO]) expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const args = ['run', 'plan.json', '--tools', 'tools.mjs', '--journal', JOURNAL, '--resume', '--json'];

    const ready = readFile(READY, 'utf8');
    const holder = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    const held = exited(holder);
    // Should the holder end before its gate, the read of READY is let go, and the test fails.
    void held.then(() => {
      try {
        closeSync(openSync(READY, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No reader left: the gate was reached.
      }
    });
    expect(await ready).toBe('held\n');
    const pid = holder.pid!;
    const journal = journalFile();
    const before = readFileSync(journal);

    const second = runPlan(args, { cwd: dir });
    expect(second.code).toBe(2);
    expect(second.stdout).toBe('');
    expect(second.stderr).toMatch(
      new RegExp(
        `^plan: error: the journal '.*' is in use by process ${pid} \\(started [^)]+\\): wait for it to end, or stop it\\n$`,
      ),
    );

    const fresh = runPlan(
      args.filter((arg) => arg !== '--resume'),
      { cwd: dir },
    );
    expect(fresh.code).toBe(2);
    expect(fresh.stderr).toMatch(new RegExp(`is in use by process ${pid} `));
    expect(readFileSync(journal)).toEqual(before);

    await writeFile(GO, 'go\n');
    const end = await held;
    expect(end.stderr).toBe('');
    expect(end.code).toBe(0);
    const lines = readFileSync(LOG, 'utf8').trim().split('\n');
    expect(lines.sort()).toEqual([
      `${pid} charge 2`,
      `${pid} charge 3`,
      `${pid} charge 4`,
      `${pid} charge 5`,
      `${pid} gate`,
    ]);
  }, 30_000);
});
