/**
 * A quota per MCP server on the command line: `--mcp "name=<command line>"` names a server, and
 * `--rate name=limit/ms` / `--tool-concurrency name=N` with that name put all its tools in one
 * group. With the real @modelcontextprotocol/server-filesystem, run in process through main().
 * Real timers, as the limiter's own tests: only lower bounds on time are asserted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectUsageError, ROOT, tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const FS_SERVER = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const q = JSON.stringify;

const temp = tempDir({});
afterAll(() => temp.cleanup());
const dir = join(temp.dir, 'files');
mkdirSync(dir);
writeFileSync(join(dir, 'a.txt'), 'a\n');
writeFileSync(join(dir, 'b.txt'), 'b\n');
const server = `${q(process.execPath)} ${q(FS_SERVER)} ${q(dir)}`;
const plan = (args: string[]) => planInProcess(args, '', { cwd: temp.dir, env: { PATH: process.env.PATH } });

/** Three calls of two of the server's tools, none waiting for another. */
const planFile = join(temp.dir, 'reads.json');
writeFileSync(
  planFile,
  q([
    { _id: 'list', _tool: 'list_directory', path: dir, _outputPath: '†state.list', _independent: true },
    {
      _id: 'a',
      _tool: 'read_text_file',
      path: join(dir, 'a.txt'),
      _outputPath: '†state.a',
      _independent: true,
    },
    {
      _id: 'b',
      _tool: 'read_text_file',
      path: join(dir, 'b.txt'),
      _outputPath: '†state.b',
      _independent: true,
    },
  ]),
);

describe('plan run --mcp name=... with a quota for the server', () => {
  it('--rate files=1/300: the calls of all its tools share one window (3 starts need 2 windows)', async () => {
    const r = await plan(['run', planFile, '--mcp', `files=${server}`, '--rate', 'files=1/300', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.state.a).toEqual({ content: 'a\n' });
    expect(out.state.b).toEqual({ content: 'b\n' });
    // The run's own time (the server's start is not in it). No tool is named `files`: only the
    // server's group can hold these calls back, to one start per 300 ms.
    expect(out.durationMs).toBeGreaterThanOrEqual(600 - 2);
  });

  it('--tool-concurrency files=1 runs them all, one at a time', async () => {
    const r = await plan([
      'run',
      planFile,
      '--mcp',
      `files=${server}`,
      '--tool-concurrency',
      'files=1',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe('succeeded');
  });

  it('a quota for both the server and one of its tools is a usage error (exit 2) saying why', async () => {
    const r = await plan([
      'run',
      planFile,
      '--mcp',
      `files=${server}`,
      '--tool-concurrency',
      'files=1',
      '--rate',
      'read_text_file=2/100',
    ]);
    expectUsageError(
      r,
      /name both the MCP server 'files' and its tool 'read_text_file'; a server's quota holds for all its tools together/,
    );
  });

  it('two servers of one name are a usage error (exit 2)', async () => {
    const r = await plan(['run', planFile, '--mcp', `files=${server}`, '--mcp', `files=${server}`]);
    expectUsageError(r, /two --mcp servers are named 'files'; give each its own name/);
  });
});
