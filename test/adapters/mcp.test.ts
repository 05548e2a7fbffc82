/**
 * fromMcpClient and connectMcpServer against the real MCP SDK: an in-memory server for the
 * protocol's corners (pages, errors, content kinds, cancellation), the real
 * @modelcontextprotocol/server-filesystem for plan mode, and a fixture server that hangs, crashes
 * or writes garbage for the failures.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { connectMcpServer, fromMcpClient, type McpServerConnection } from '../../src/adapters/index.js';
import { guardTools, PermissionPolicy, PlanMode, PlanModePolicy } from '../../src/agent/index.js';
import { isMcpServerError, run } from '../../src/index.js';
import { alive, fileContent, snapshot } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FS_SERVER = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const HANG_SERVER = join(import.meta.dirname, 'fixtures/hang-server.mjs');
const GARBAGE_SERVER = join(import.meta.dirname, 'fixtures/garbage-server.mjs');
const node = JSON.stringify(process.execPath);

/** An in-memory server with 5 tools listed 2 per page, and tools/call answered by `answer`. */
async function memoryClient(
  answer: (name: string, args: Record<string, unknown>, signal: AbortSignal) => unknown,
) {
  const server = new Server({ name: 'memory', version: '1.0.0' }, { capabilities: { tools: {} } });
  const all = [
    {
      name: 'read',
      description: 'Read',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      outputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'write',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: false, destructiveHint: true },
    },
    { name: 'picture', inputSchema: { type: 'object' } },
    { name: 'broken', inputSchema: { type: 'object' } },
    { name: 'slow', inputSchema: { type: 'object' } },
  ];
  const pages: string[] = [];
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const start = Number(request.params?.cursor ?? 0);
    pages.push(request.params?.cursor ?? '(first)');
    const next = start + 2 < all.length ? String(start + 2) : undefined;
    return { tools: all.slice(start, start + 2), ...(next && { nextCursor: next }) };
  });
  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra) =>
      (await answer(request.params.name, request.params.arguments ?? {}, extra.signal)) as never,
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return { client, pages, close: () => client.close() };
}

describe('fromMcpClient', () => {
  it('a server quota goes on each of its tools, in one group named for the server; a bad one is a TypeError', async () => {
    const memory = await memoryClient(() => ({ content: [] }));
    try {
      const tools = await fromMcpClient(memory.client, {
        server: 'files',
        concurrency: 2,
        rateLimit: { limit: 10, intervalMs: 1000 },
      });
      for (const tool of tools)
        expect(tool).toMatchObject({
          concurrency: 2,
          rateLimit: { limit: 10, intervalMs: 1000 },
          quotaGroup: 'files',
        });
      await expect(fromMcpClient(memory.client, { concurrency: 0 })).rejects.toThrow(
        'fromMcpClient: "concurrency" must be a whole number from 1 to 10000, not 0',
      );
    } finally {
      await memory.close();
    }
  });

  it('reads every page of tools/list and keeps schemas and annotations, marked untrusted', async () => {
    const memory = await memoryClient(() => ({ content: [] }));
    try {
      const tools = await fromMcpClient(memory.client);
      expect(memory.pages).toEqual(['(first)', '2', '4']);
      expect(tools.map((t) => t.name)).toEqual(['read', 'write', 'picture', 'broken', 'slow']);
      expect(tools[0]).toMatchObject({
        name: 'read',
        description: 'Read',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        outputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        annotations: { readOnlyHint: true },
        annotationsTrusted: false,
      });
      const trusted = await fromMcpClient(memory.client, { trustAnnotations: true, prefix: 'm_' });
      expect(trusted.map((t) => t.name)).toEqual(['m_read', 'm_write', 'm_picture', 'm_broken', 'm_slow']);
      expect(trusted.every((t) => t.annotationsTrusted === undefined)).toBe(true);
    } finally {
      await memory.close();
    }
  });

  it('outputs: structuredContent, else the text, else the content; isError fails the call with the text', async () => {
    const memory = await memoryClient((name, args) => {
      if (name === 'read')
        return {
          content: [{ type: 'text', text: 'ignored' }],
          structuredContent: { text: `file ${args.path}` },
        };
      if (name === 'write')
        return {
          content: [
            { type: 'text', text: '{"ok":' },
            { type: 'text', text: 'true}' },
          ],
        };
      if (name === 'picture') return { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] };
      return { content: [{ type: 'text', text: 'permission denied: /etc' }], isError: true };
    });
    try {
      const tools = await fromMcpClient(memory.client, { prefix: 'm_' });
      const result = await run(
        [
          { _id: 'r', _tool: 'm_read', path: 'a.txt', _outputPath: '†state.read' },
          { _id: 'w', _tool: 'm_write', _outputPath: '†state.write' },
          { _id: 'p', _tool: 'm_picture', _outputPath: '†state.picture' },
          { _id: 'b', _tool: 'm_broken', _outputPath: '†state.broken' },
        ],
        { tools },
      );
      expect(result.state).toEqual({
        read: { text: 'file a.txt' },
        write: '{"ok":\ntrue}',
        picture: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }],
      });
      const broken = result.calls.find((c) => c.id === 'b')!;
      expect(broken.status).toBe('failed');
      expect(broken.error?.message).toContain('permission denied: /etc');

      const parsing = await fromMcpClient(memory.client, { parseJson: true });
      const parsed = await run([{ _tool: 'write', _outputPath: '†state.w' }], { tools: parsing });
      // Two text items joined by a newline are still JSON.
      expect(parsed.state).toEqual({ w: { ok: true } });
    } finally {
      await memory.close();
    }
  });

  it("passes the call's abort signal: a timeout cancels the request on the server", async () => {
    let cancelled!: () => void;
    const serverSawCancel = new Promise<void>((r) => (cancelled = r));
    const memory = await memoryClient(
      (_name, _args, signal) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            cancelled();
            reject(new Error('cancelled'));
          }),
        ),
    );
    try {
      const tools = (await fromMcpClient(memory.client)).map((t) =>
        t.name === 'slow' ? { ...t, timeoutMs: 50 } : t,
      );
      const result = await run([{ _tool: 'slow' }], { tools });
      expect(result.calls[0]!.status).toBe('failed');
      expect(result.calls[0]!.error?.code).toBe('TIMEOUT');
      await serverSawCancel;
    } finally {
      await memory.close();
    }
  });

  it('refuses what is not a client, and bad options, with a TypeError', async () => {
    await expect(fromMcpClient({} as never)).rejects.toThrow(/client must be a connected MCP Client/);
    const memory = await memoryClient(() => ({ content: [] }));
    try {
      await expect(fromMcpClient(memory.client, { trustAnnotations: 'yes' as never })).rejects.toThrow(
        /trustAnnotations must be a boolean/,
      );
    } finally {
      await memory.close();
    }
  });
});

describe('connectMcpServer with @modelcontextprotocol/server-filesystem under plan mode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'planmode-mcp-'));
  writeFileSync(join(dir, 'notes.txt'), 'first line\n');
  const connections: McpServerConnection[] = [];
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  const connect = async (trustAnnotations: boolean) => {
    const connection = await connectMcpServer(`${node} ${JSON.stringify(FS_SERVER)} ${JSON.stringify(dir)}`, {
      trustAnnotations,
    });
    connections.push(connection);
    return connection;
  };
  const call = (name: string, args: Record<string, unknown>) => ({ id: `c_${name}`, name, arguments: args });

  it('the server says read_file is read-only (readOnlyHint: true) and write_file is not', async () => {
    const { tools } = await connect(false);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('read_file')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('write_file')?.annotations?.readOnlyHint).toBe(false);
  });

  it('untrusted (the default): every tool is denied while planning, even over trustAnnotations: true, and nothing changes on disk', async () => {
    const { tools } = await connect(false);
    const before = snapshot(dir);
    const latch = new PlanMode();
    latch.enter();
    // The base believes annotations; the MCP tools are marked untrusted, so it does not believe theirs.
    const base = new PermissionPolicy({ mode: 'bypassPermissions', tools, trustAnnotations: true });
    const guard = guardTools(tools, new PlanModePolicy(base, latch));
    expect(guard.definitions()).toEqual([]);
    const write = await guard.call(
      call('write_file', { path: join(dir, 'notes.txt'), content: 'overwritten' }),
    );
    expect(write.status).toBe('denied');
    expect(write.message.content).toContain("Plan mode denies mutating tool 'write_file'");
    const read = await guard.call(call('read_file', { path: join(dir, 'notes.txt') }));
    expect(read.status).toBe('denied');
    expect(snapshot(dir)).toEqual(before);

    // Out of plan mode the same guard lets the write through: the denial was plan mode's.
    latch.exit('write the scratch file');
    const written = await guard.call(call('write_file', { path: join(dir, 'scratch.txt'), content: 'x' }));
    expect(written.status).toBe('succeeded');
    expect(readFileSync(join(dir, 'scratch.txt'), 'utf8')).toBe('x');
    rmSync(join(dir, 'scratch.txt'));
  });

  it('trusted annotations: read_file is allowed while planning, write_file still denied', async () => {
    const { tools } = await connect(true);
    const before = snapshot(dir);
    const latch = new PlanMode();
    latch.enter();
    const policy = new PlanModePolicy(
      new PermissionPolicy({ mode: 'bypassPermissions', tools, trustAnnotations: true }),
      latch,
    );
    const guard = guardTools(tools, policy);
    const visible = guard.definitions().map((d) => d.name);
    expect(visible).toContain('read_file');
    expect(visible).not.toContain('write_file');
    const read = await guard.call(call('read_file', { path: join(dir, 'notes.txt') }));
    expect(read.status).toBe('succeeded');
    expect(read.output).toEqual({ content: 'first line\n' });
    for (const [name, args] of [
      ['write_file', { path: join(dir, 'notes.txt'), content: 'overwritten' }],
      ['edit_file', { path: join(dir, 'notes.txt'), edits: [{ oldText: 'first', newText: 'last' }] }],
      ['create_directory', { path: join(dir, 'sub') }],
      ['move_file', { source: join(dir, 'notes.txt'), destination: join(dir, 'moved.txt') }],
    ] as const) {
      const result = await guard.call(call(name, args));
      expect(result.status, name).toBe('denied');
    }
    expect(snapshot(dir)).toEqual(before);
  });

  it('an allowlist (readOnly) makes a tool read-only without trusting the server', async () => {
    const { tools } = await connect(false);
    const latch = new PlanMode();
    latch.enter();
    const guard = guardTools(
      tools,
      new PlanModePolicy(new PermissionPolicy({ mode: 'bypassPermissions' }), latch, {
        tools,
        readOnly: ['list_*'],
      }),
    );
    expect(
      guard
        .definitions()
        .map((d) => d.name)
        .sort(),
    ).toEqual(['list_allowed_directories', 'list_directory', 'list_directory_with_sizes']);
    expect((await guard.call(call('list_directory', { path: dir }))).output).toEqual({
      content: '[FILE] notes.txt',
    });
  });
});

describe('connectMcpServer: servers that fail', () => {
  const dir = mkdtempSync(join(tmpdir(), 'planmode-mcp-fail-'));
  const open: McpServerConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const startError = async (commandLine: string): Promise<Error> => {
    try {
      open.push(await connectMcpServer(commandLine, { startTimeoutMs: 10_000 }));
    } catch (error) {
      expect(isMcpServerError(error)).toBe(true);
      expect((error as Error).message).not.toContain('\n');
      return error as Error;
    }
    throw new Error(`${commandLine} started`);
  };

  it('a command that does not exist', async () => {
    const error = await startError('planmode-no-such-command --flag');
    expect(error.message).toBe(
      "cannot start MCP server `planmode-no-such-command --flag`: the command 'planmode-no-such-command' was not found",
    );
  });

  it('a server that exits at once, with what it said on stderr', async () => {
    const error = await startError(`${node} -e "console.error('boom: no config'); process.exit(3)"`);
    expect(error.message).toMatch(
      /exited with code 3; its last words on stderr: boom: no config before it was ready$/,
    );
  });

  it('a program that writes something that is not MCP to stdout', async () => {
    const error = await startError(`${node} ${JSON.stringify(GARBAGE_SERVER)}`);
    expect(error.message).toMatch(/wrote something that is not an MCP message to stdout \(.*Welcome/);
  });

  it('an unclosed quote in the command line', async () => {
    const error = await startError(`node "server.js`);
    expect(error.message).toBe('MCP server command line `node "server.js`: unclosed " at column 6');
  });

  it('a server killed while a call is in flight: that call fails with the reason, the others end too, and no call waits', async () => {
    const marker = join(dir, 'hang.pid');
    const connection = await connectMcpServer(
      `${node} ${JSON.stringify(HANG_SERVER)} ${JSON.stringify(marker)}`,
    );
    open.push(connection);
    const hanging = fileContent(dir, 'hang.pid');
    const running = run(
      [
        { _id: 'hang', _tool: 'hang', _outputPath: '†state.h' },
        { _id: 'after', _tool: 'echo', text: '†state.h' },
      ],
      { tools: connection.tools },
    );
    const pid = Number(await hanging);
    expect(pid).toBe(connection.pid);
    process.kill(pid, 'SIGKILL');
    const result = await running;
    expect(result.calls.map((c) => [c.id, c.status])).toEqual([
      ['hang', 'failed'],
      ['after', 'upstream_failed'],
    ]);
    expect(result.calls[0]!.error?.message).toBe(
      `MCP server \`${connection.name}\` closed the connection while 'hang' was running (it was killed by SIGKILL; its last words on stderr: hang-server ready)`,
    );
    // A call made after the death fails at once, too.
    const late = await run([{ _tool: 'echo', text: 'hi' }], { tools: connection.tools });
    expect(late.calls[0]!.status).toBe('failed');
  });

  it('a server that exits mid-call, and one that writes garbage mid-call', async () => {
    const crashing = await connectMcpServer(`${node} ${JSON.stringify(HANG_SERVER)}`);
    open.push(crashing);
    const crashed = await run([{ _tool: 'crash' }], { tools: crashing.tools });
    expect(crashed.calls[0]!.error?.message).toMatch(
      /closed the connection while 'crash' was running \(it exited with code 3; its last words on stderr: crash: giving up\)$/,
    );

    const spoiling = await connectMcpServer(`${node} ${JSON.stringify(HANG_SERVER)}`);
    open.push(spoiling);
    const pid = spoiling.pid!;
    const spoiled = await run([{ _tool: 'spoil' }], { tools: spoiling.tools });
    expect(spoiled.calls[0]!.error?.message).toMatch(
      /closed the connection while 'spoil' was running \(it wrote something that is not an MCP message to stdout/,
    );
    // The connection was closed for it, and so was the process.
    await spoiling.close();
    expect(alive(pid)).toBe(false);
  });

  it('close() ends the server process', async () => {
    const connection = await connectMcpServer(`${node} ${JSON.stringify(HANG_SERVER)}`);
    const pid = connection.pid!;
    expect(alive(pid)).toBe(true);
    await connection.close();
    expect(alive(pid)).toBe(false);
    expect(connection.pid).toBeNull();
  });
});
