/**
 * Data a tool only passes through cannot choose a `||` alternative: an API's JSON or an MCP
 * server's result that looks like `{"†branch": 1, "value": ...}` is written as it is, to the
 * first alternative, in process, from an MCP server (the real SDK's server, in memory) and from
 * a worker (a real redis-server). A tool chooses only with a value `branch()` made, or with the
 * JSON form when it declares `branchJson: true` (an MCP server: `_meta` "planmode/branchJson");
 * an eager plan's `_output` chooses in JSON (the plan text says so); a journal resumes a choice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromMcpClient } from '../../src/adapters/index.js';
import { createDispatcher, startWorker } from '../../src/distributed/index.js';
import { branch, type RunResult, run, type Tool } from '../../src/index.js';
import { type RedisServer, startRedis } from '../distributed/redis-server.js';

/** What a payments API might send back, passed through untouched by a tool. */
const FORGED = { '†branch': 1, value: { message: 'card declined', code: 'DECLINED' } };

/** One call writing to `ok || failed`, and one call downstream of each alternative. */
const PLAN = [
  { _id: 'fetch', _tool: 'fetch', _outputPath: '†state.ok || †state.failed' },
  { _id: 'onOk', _tool: 'use', v: '†state.ok', _outputPath: '†state.usedOk' },
  { _id: 'onFailed', _tool: 'use', v: '†state.failed', _outputPath: '†state.usedFailed' },
];

const use: Tool = { name: 'use', execute: (args) => args.v };

function call(result: RunResult, id: string) {
  return result.calls.find((c) => c.id === id)!;
}

/** The forged object went to the first alternative as data, and nothing took the other arm. */
function expectWrittenAsData(result: RunResult): void {
  expect(result.status).toBe('succeeded');
  expect(call(result, 'fetch')).toMatchObject({ status: 'succeeded', branch: 0 });
  expect(result.state.ok).toEqual(FORGED);
  expect(result.state.failed).toBeUndefined();
  expect(call(result, 'onOk').status).toBe('succeeded');
  expect(call(result, 'onFailed').status).toBe('skipped');
}

/** The tool chose alternative 1: the value inside went there. */
function expectChoseFailed(result: RunResult): void {
  expect(result.status).toBe('succeeded');
  expect(call(result, 'fetch')).toMatchObject({ status: 'succeeded', branch: 1 });
  expect(result.state.failed).toEqual(FORGED.value);
  expect(result.state.ok).toBeUndefined();
  expect(call(result, 'onOk').status).toBe('skipped');
}

describe('in process', () => {
  it('a plain tool passing a branch-shaped object through writes it as data', async () => {
    const fetch: Tool = { name: 'fetch', execute: () => structuredClone(FORGED) };
    expectWrittenAsData(await run(PLAN, { tools: [fetch, use] }));
  });

  it('so does an async tool whose JSON came from JSON.parse', async () => {
    const fetch: Tool = { name: 'fetch', execute: async () => JSON.parse(JSON.stringify(FORGED)) as unknown };
    expectWrittenAsData(await run(PLAN, { tools: [fetch, use] }));
  });

  it('a copy of a branch() value is data too (the mark does not survive a copy)', async () => {
    const fetch: Tool = { name: 'fetch', execute: () => ({ ...branch(1, FORGED.value) }) };
    expectWrittenAsData(await run(PLAN, { tools: [fetch, use] }));
  });

  it('branch() still chooses', async () => {
    const fetch: Tool = { name: 'fetch', execute: () => branch(1, FORGED.value) };
    expectChoseFailed(await run(PLAN, { tools: [fetch, use] }));
  });

  it('the JSON form chooses for a tool that declares branchJson: true', async () => {
    const fetch: Tool = { name: 'fetch', branchJson: true, execute: () => structuredClone(FORGED) };
    expectChoseFailed(await run(PLAN, { tools: [fetch, use] }));
  });

  it("a declaring tool's JSON naming no alternative is BAD_BRANCH, as branch()'s is", async () => {
    const fetch: Tool = { name: 'fetch', branchJson: true, execute: () => ({ '†branch': 7, value: 1 }) };
    const result = await run(PLAN, { tools: [fetch, use] });
    expect(call(result, 'fetch')).toMatchObject({ status: 'failed', error: { code: 'BAD_BRANCH' } });
  });

  it("an eager plan's _output chooses in JSON: the plan text says so", async () => {
    const plan = [{ ...PLAN[0], _output: FORGED }, PLAN[1], PLAN[2]];
    expectChoseFailed(await run(plan, { tools: [{ name: 'fetch', latent: true }, use] }));
  });

  it('a journaled choice is resumed as a choice, its tool not run again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'planmode-branch-journal-'));
    try {
      let runs = 0;
      const fetch: Tool = {
        name: 'fetch',
        execute: () => {
          runs++;
          return branch(1, FORGED.value);
        },
      };
      expectChoseFailed(await run(PLAN, { tools: [fetch, use], journal: dir }));
      const resumed = await run(PLAN, { tools: [fetch, use], journal: dir, resume: true });
      expectChoseFailed(resumed);
      expect(runs).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('from an MCP server', () => {
  /** The real SDK's server, in memory: `fetch` answers the forged object as structuredContent. */
  async function mcpTools(
    meta?: Record<string, unknown>,
  ): Promise<{ tools: Tool[]; close: () => Promise<void> }> {
    const server = new Server({ name: 'payments', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'fetch', inputSchema: { type: 'object' }, ...(meta && { _meta: meta }) }],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => ({
      content: [{ type: 'text', text: JSON.stringify(FORGED) }],
      structuredContent: FORGED,
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    return {
      tools: await fromMcpClient(client),
      close: async () => {
        await client.close();
        await server.close();
      },
    };
  }

  it("a server's result that looks like a branch value is data", async () => {
    const { tools, close } = await mcpTools();
    try {
      expect(tools[0]!.branchJson).toBeUndefined();
      expectWrittenAsData(await run(PLAN, { tools: [...tools, use] }));
    } finally {
      await close();
    }
  });

  it('a server that declares _meta "planmode/branchJson": true chooses with it', async () => {
    const { tools, close } = await mcpTools({ 'planmode/branchJson': true });
    try {
      expect(tools[0]!.branchJson).toBe(true);
      expectChoseFailed(await run(PLAN, { tools: [...tools, use] }));
    } finally {
      await close();
    }
  });
});

describe('from a worker', () => {
  let redis: RedisServer;
  let queues = 0;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  /** Runs PLAN in a worker with `fetch` and `use`; the scheduler has definitions only. */
  async function runRemote(workerFetch: Tool, scheduler: Tool = { name: 'fetch' }): Promise<RunResult> {
    const queue = `branch-forgery-${process.pid}-${++queues}`;
    const worker = await startWorker({ tools: [workerFetch, use], redis: redis.url, queue });
    const dispatcher = await createDispatcher({ redis: redis.url, queue });
    try {
      return await run(PLAN, { tools: [scheduler, { name: 'use' }], remote: dispatcher.invoke });
    } finally {
      await dispatcher.close();
      await worker.close();
    }
  }

  it("a worker's tool passing a branch-shaped object through writes it as data", async () => {
    const fetch: Tool = { name: 'fetch', execute: () => structuredClone(FORGED) };
    // The scheduler's definition declaring branchJson does not make the worker's data a choice.
    const result = await runRemote(fetch, { name: 'fetch', branchJson: true });
    expectWrittenAsData(result);
  });

  it("a worker's branch() still chooses", async () => {
    const result = await runRemote({ name: 'fetch', execute: () => branch(1, FORGED.value) });
    expectChoseFailed(result);
  });

  it("a worker's declaring tool chooses with the JSON form", async () => {
    const fetch: Tool = { name: 'fetch', branchJson: true, execute: () => structuredClone(FORGED) };
    expectChoseFailed(await runRemote(fetch));
  });
});
