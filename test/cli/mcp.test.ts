/**
 * `--mcp "<command line>"`: the real @modelcontextprotocol/server-filesystem on a temporary
 * directory, started by `plan` (run in process through main()) as a child process; and a
 * fixture server that hangs, crashes or is killed, for the failures.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, fileContent, snapshot } from '../adapters/helpers.js';
import { expectUsageError, ROOT, tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const FS_SERVER = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const HANG_SERVER = join(ROOT, 'test/adapters/fixtures/hang-server.mjs');
const GARBAGE_SERVER = join(ROOT, 'test/adapters/fixtures/garbage-server.mjs');
const q = JSON.stringify;
const node = q(process.execPath);

const temp = tempDir({});
afterAll(() => temp.cleanup());
let count = 0;
/** A fresh directory for the filesystem server, with two files in it. */
function files(): string {
  const dir = join(temp.dir, `files-${++count}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'notes.txt'), 'first line\n');
  writeFileSync(join(dir, 'data.bin'), Buffer.from([0, 1, 2, 255]));
  return dir;
}
const fsServer = (dir: string) => `${node} ${q(FS_SERVER)} ${q(dir)}`;
const write = (name: string, value: unknown) => {
  const path = join(temp.dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};
/** `plan <args>` in this process, from the temp dir; the servers it starts get only PATH. */
const plan = (args: string[]) => planInProcess(args, '', { cwd: temp.dir, env: { PATH: process.env.PATH } });

describe('plan run --mcp with @modelcontextprotocol/server-filesystem', () => {
  it('a plan lists, reads and writes files through it; the files on disk are right afterwards', async () => {
    const dir = files();
    const p = write('fs-plan.json', [
      { _id: 'list', _tool: 'list_directory', path: dir, _outputPath: '†state.listing' },
      { _id: 'read', _tool: 'read_text_file', path: join(dir, 'notes.txt'), _outputPath: '†state.notes' },
      { _id: 'mkdir', _tool: 'create_directory', path: join(dir, 'out') },
      { _id: 'copy', _tool: 'write_file', path: join(dir, 'out/copy.txt'), content: '†state.notes.content' },
      {
        _id: 'edit',
        _tool: 'edit_file',
        path: join(dir, 'notes.txt'),
        edits: [{ oldText: 'first line', newText: 'edited line' }],
      },
    ]);
    const r = await plan(['run', p, '--mcp', fsServer(dir), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.status).toBe('succeeded');
    expect(out.calls.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ['list', 'succeeded'],
      ['read', 'succeeded'],
      ['mkdir', 'succeeded'],
      ['copy', 'succeeded'],
      ['edit', 'succeeded'],
    ]);
    expect(out.state.listing.content.split('\n').sort()).toEqual(['[FILE] data.bin', '[FILE] notes.txt']);
    expect(out.state.notes).toEqual({ content: 'first line\n' });
    expect(readFileSync(join(dir, 'out/copy.txt'), 'utf8')).toBe('first line\n');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('edited line\n');
    expect([...readFileSync(join(dir, 'data.bin'))]).toEqual([0, 1, 2, 255]);
  });

  it('a call the server refuses (a path outside its directory) fails with its message; the rest still run', async () => {
    const dir = files();
    // write_file is an effect (the server says readOnlyHint: false): in program order it would
    // not start after the failure before it. `_independent` lets `ok` run regardless.
    const p = write('outside.json', [
      { _id: 'bad', _tool: 'read_text_file', path: '/etc/hostname', _outputPath: '†state.h' },
      { _id: 'after', _tool: 'write_file', path: join(dir, 'h.txt'), content: '†state.h.content' },
      { _id: 'ok', _tool: 'write_file', path: join(dir, 'ok.txt'), content: 'ok', _independent: true },
    ]);
    const r = await plan(['run', p, '--mcp', fsServer(dir), '--json']);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout);
    expect(out.calls.map((c: { status: string }) => c.status)).toEqual([
      'failed',
      'upstream_failed',
      'succeeded',
    ]);
    expect(out.calls[0].error.message).toMatch(/^Access denied - path outside allowed directories/);
    expect(readFileSync(join(dir, 'ok.txt'), 'utf8')).toBe('ok');
  });

  it("validate and simulate check plans against the server's schemas; --tools is optional with --mcp", async () => {
    const dir = files();
    const good = write('good.json', [{ _tool: 'read_text_file', path: 'x', _outputPath: '†state.x' }]);
    const bad = write('bad.json', [
      { _tool: 'write_file', path: 'x' },
      { _tool: 'write_fil', path: 'y', content: '' },
    ]);
    const v = await plan(['validate', good, '--mcp', fsServer(dir), '--json']);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout).ok).toBe(true);
    const invalid = await plan(['validate', bad, '--mcp', fsServer(dir), '--json']);
    expect(invalid.code).toBe(1);
    const codes = JSON.parse(invalid.stdout).diagnostics.map((d: { code: string; hint?: string }) => [
      d.code,
      d.hint,
    ]);
    expect(codes[0][0]).toBe('E_ARGS');
    expect(codes[1][0]).toBe('E_UNKNOWN_TOOL');
    expect(codes[1][1]).toContain('write_file');
    const s = await plan(['simulate', good, '--mcp', fsServer(dir), '--json']);
    expect(s.code).toBe(0);
    expect(JSON.parse(s.stdout).scenarios[0].run).toEqual(['0']);
  });

  it('the tools of --tools and of several --mcp servers join; a name given twice is a usage error', async () => {
    const dir = files();
    const tools = write(
      'tools.mjs',
      `export const tools = [{ name: 'shout', execute: ({ text }) => text.toUpperCase() }];`,
    );
    const p = write('joined.json', [
      { _id: 'echo', _tool: 'echo', text: 'hi', _outputPath: '†state.e' },
      { _id: 'shout', _tool: 'shout', text: '†state.e', _outputPath: '†state.s' },
      { _id: 'dirs', _tool: 'list_allowed_directories', _outputPath: '†state.d' },
    ]);
    const r = await plan([
      'run',
      p,
      '--tools',
      tools,
      '--mcp',
      `${node} ${q(HANG_SERVER)}`,
      '--mcp',
      fsServer(dir),
      '--json',
    ]);
    expect(r.code).toBe(0);
    const state = JSON.parse(r.stdout).state;
    expect(state.s).toBe('HI');
    expect(state.d.content).toContain(dir);

    const twice = await plan(['validate', p, '--mcp', fsServer(dir), '--mcp', fsServer(dir)]);
    expectUsageError(twice, /the tool 'read_file' is given by two MCP servers/);
    const clash = write('clash.mjs', `export const tools = [{ name: 'echo', execute: () => 1 }];`);
    expectUsageError(
      await plan(['validate', p, '--tools', clash, '--mcp', `${node} ${q(HANG_SERVER)}`]),
      /the tool 'echo' is given by both --tools '.*clash\.mjs' and an --mcp server/,
    );
  });
});

describe("plan agent --plan-mode --mcp: the server's write tools are denied while planning", () => {
  const turns = (name: string, dir: string) =>
    write(name, [
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: join(dir, 'notes.txt'), content: 'overwritten' } },
        ],
      },
      { toolCalls: [{ name: 'read_file', arguments: { path: join(dir, 'notes.txt') } }] },
      { toolCalls: [{ name: 'create_directory', arguments: { path: join(dir, 'new') } }] },
      // A plain-text answer is the plan: approved (--yes), it is carried out, here by answering.
      { text: 'I looked, and changed nothing.' },
      { text: 'Nothing needed changing.' },
    ]);

  it('untrusted (the default): write_file, read_file and create_directory are all denied; not one byte changes', async () => {
    const dir = files();
    const before = snapshot(dir);
    const r = await plan([
      'agent',
      'tidy up',
      '--plan-mode',
      '--model',
      `scripted:${turns('t1.json', dir)}`,
      '--mcp',
      fsServer(dir),
      '--yes',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "✗ write_file: Permission denied: Plan mode denies mutating tool 'write_file'",
    );
    expect(r.stderr).toContain("✗ read_file: Permission denied: Plan mode denies mutating tool 'read_file'");
    expect(r.stderr).toContain(
      "✗ create_directory: Permission denied: Plan mode denies mutating tool 'create_directory'",
    );
    expect(r.stdout).toBe('Nothing needed changing.\n');
    expect(snapshot(dir)).toEqual(before);
  });

  it('--trust-mcp-annotations: read_file (readOnlyHint: true) runs while planning; the writes are still denied', async () => {
    const dir = files();
    const before = snapshot(dir);
    const r = await plan([
      'agent',
      'tidy up',
      '--plan-mode',
      '--model',
      `scripted:${turns('t2.json', dir)}`,
      '--mcp',
      fsServer(dir),
      '--trust-mcp-annotations',
      '--yes',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "✗ write_file: Permission denied: Plan mode denies mutating tool 'write_file'",
    );
    expect(r.stderr).toContain('✓ read_file: {"content":"first line\\n"}');
    expect(r.stderr).toContain('✗ create_directory: Permission denied');
    expect(snapshot(dir)).toEqual(before);
  });

  it('--read-only allowlists a tool without trusting the server; after the plan is approved, the write runs', async () => {
    const dir = files();
    const t = write('t3.json', [
      { toolCalls: [{ name: 'read_file', arguments: { path: join(dir, 'notes.txt') } }] },
      { toolCalls: [{ name: 'exit_plan', arguments: { plan: 'Append a line to notes.txt.' } }] },
      {
        toolCalls: [
          {
            name: 'write_file',
            arguments: { path: join(dir, 'notes.txt'), content: 'first line\nsecond\n' },
          },
        ],
      },
      { text: 'Done.' },
    ]);
    const r = await plan([
      'agent',
      'append',
      '--plan-mode',
      '--model',
      `scripted:${t}`,
      '--mcp',
      fsServer(dir),
      '--read-only',
      'read_*',
      '--yes',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('✓ read_file: {"content":"first line\\n"}');
    expect(r.stderr).toMatch(/✓ write_file: /);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('first line\nsecond\n');
  });
});

describe('--mcp servers that fail', () => {
  it('cannot start: a missing command, an early exit, garbage on stdout, a bad command line: one line, exit 2', async () => {
    const p = write('one.json', [{ _tool: 'echo', text: 'x' }]);
    expectUsageError(
      await plan(['run', p, '--mcp', 'planmode-no-such-command --stdio']),
      /^plan: error: cannot start MCP server `planmode-no-such-command --stdio`: the command 'planmode-no-such-command' was not found$/m,
    );
    expectUsageError(
      await plan(['validate', p, '--mcp', `${node} -e "console.error('no config file'); process.exit(4)"`]),
      /exited with code 4; its last words on stderr: no config file before it was ready$/m,
    );
    expectUsageError(
      await plan(['simulate', p, '--mcp', `${node} ${q(GARBAGE_SERVER)}`]),
      /wrote something that is not an MCP message to stdout/,
    );
    expectUsageError(await plan(['validate', p, '--mcp', `node 'server.js`]), /unclosed ' at column 6/);
    expectUsageError(await plan(['validate', p, '--mcp', '  ']), /--mcp needs a command line/);
    expectUsageError(
      await plan(['agent', 'x', '--model', 'scripted:none.json', '--mcp', 'planmode-no-such-command']),
      /the command 'planmode-no-such-command' was not found/,
    );
  });

  it('plan run, simulate and agent without --tools or --mcp say both', async () => {
    const p = write('two.json', [{ _tool: 'echo', text: 'x' }]);
    expectUsageError(await plan(['run', p]), /needs --tools <module> .* or --mcp <server>/);
    expectUsageError(await plan(['simulate', p]), /needs --tools <file> or --mcp <server>/);
    expectUsageError(
      await plan(['agent', 'x', '--model', 'scripted:none.json']),
      /needs --tools <module> .* or --mcp <server>/,
    );
  });

  it('killed while a call is in flight: that call fails with the reason, the others end in named states, exit 3', async () => {
    const dir = files();
    const marker = join(temp.dir, 'killed.pid');
    // write_file is an effect (readOnlyHint: false): `_independent` lets it run beside the
    // hanging call, on the other server, rather than wait for it.
    const p = write('kill.json', [
      { _id: 'hang', _tool: 'hang', _outputPath: '†state.h' },
      { _id: 'after', _tool: 'echo', text: '†state.h' },
      {
        _id: 'other',
        _tool: 'write_file',
        path: join(dir, 'other.txt'),
        content: 'written',
        _independent: true,
      },
    ]);
    const running = plan([
      'run',
      p,
      '--json',
      '--mcp',
      `${node} ${q(HANG_SERVER)} ${q(marker)}`,
      '--mcp',
      fsServer(dir),
    ]);
    const pid = Number(await fileContent(temp.dir, 'killed.pid'));
    process.kill(pid, 'SIGKILL');
    const { code, stdout, stderr } = await running;
    expect(code).toBe(3);
    expect(stderr).toBe('');
    const out = JSON.parse(stdout);
    expect(out.status).toBe('failed');
    expect(out.calls.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ['hang', 'failed'],
      ['after', 'upstream_failed'],
      ['other', 'succeeded'],
    ]);
    expect(out.calls[0].error.message).toMatch(
      /^MCP server `.*hang-server\.mjs.*` closed the connection while 'hang' was running \(it was killed by SIGKILL; /,
    );
    expect(readFileSync(join(dir, 'other.txt'), 'utf8')).toBe('written');
  });

  it('exits mid-call: the call fails with the exit code and what it said', async () => {
    const p = write('crash.json', [{ _tool: 'crash' }]);
    const r = await plan(['run', p, '--mcp', `${node} ${q(HANG_SERVER)}`, '--json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).calls[0].error.message).toMatch(
      /closed the connection while 'crash' was running \(it exited with code 3; its last words on stderr: crash: giving up\)$/,
    );
  });

  it('no orphans: the server process is gone when the command ends (success, invalid plan, a call still hanging at a timeout)', async () => {
    const cases: [string, string[], unknown[], number][] = [
      ['ok', ['run'], [{ _tool: 'pid' }], 0],
      ['invalid', ['validate'], [{ _tool: 'nope' }], 1],
      ['hanging', ['run', '--timeout', '300'], [{ _tool: 'hang' }], 3],
    ];
    // Each server outlives its closed stdin, so each close waits out the SDK's grace before
    // SIGTERM: the three commands run side by side (every path is absolute, no cwd needed).
    await Promise.all(
      cases.map(async ([name, command, body, code]) => {
        const pidFile = join(temp.dir, `${name}.pid`);
        const p = write(`${name}.json`, body);
        const [verb, ...flags] = command;
        const server = `${node} ${q(HANG_SERVER)} ${q(join(temp.dir, `${name}.hang`))} ${q(pidFile)}`;
        const r = await planInProcess([verb!, p, ...flags, '--mcp', server], '', {
          env: { PATH: process.env.PATH },
        });
        expect(r.code, `${name}: ${r.stderr}`).toBe(code);
        const pid = Number(readFileSync(pidFile, 'utf8'));
        expect(pid).toBeGreaterThan(0);
        expect(alive(pid), name).toBe(false);
      }),
    );
  });
});
