/**
 * `plan agent`, in process through main(): the agent loop against a scripted model (a JSON file
 * of turns) and against a loopback server that speaks the Chat Completions streaming protocol.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { sendEvent, startServer, startSse } from '../agent/providers/fake-server.js';
import { expectUsageError, tempDir } from './helpers.js';
import { expectOneLineUsageError, planInProcess } from './in-process.js';

const TOOLS = `
import { appendFileSync } from 'node:fs';
const log = new URL('./writes.log', import.meta.url);
export const tools = [
  {
    name: 'lookup',
    description: 'Look up a stock price',
    inputSchema: {
      type: 'object',
      properties: { symbol: { type: 'string' }, exchange: { type: 'string' } },
      required: ['symbol'],
    },
    outputSchema: { type: 'number' },
    annotations: { readOnlyHint: true },
    execute: ({ symbol }) => (symbol === 'ACME' ? 42 : 7),
  },
  {
    name: 'record',
    description: 'Write a line to the log',
    inputSchema: { type: 'object', properties: { line: {} }, required: ['line'] },
    execute: ({ line }) => {
      appendFileSync(log, JSON.stringify(line) + '\\n');
      return 'written';
    },
  },
];
`;

const solution = {
  calls: [
    { _id: 'price', _tool: 'lookup', symbol: '†input.task', _outputPath: '†state.price' },
    { _id: 'log', _tool: 'record', line: '†state.price', _outputPath: '†state.logged' },
  ],
  output: null,
};
const answer = { calls: [], output: { price: 42 } };
const text = (value: unknown) => ({ text: JSON.stringify(value) });

const temp = tempDir({
  'tools.mjs': TOOLS,
  'solve.json': [text(solution), text(answer)],
  'lazy.json': [text(solution)],
  // What a grammar-constrained engine writes: a null for each optional key left out.
  'grammar.json': [
    text({
      calls: solution.calls.map((call) => ({ ...call, _onError: null, _forEach: null })),
      output: null,
    }),
    text(answer),
  ],
  'plan-mode.json': [
    { toolCalls: [{ name: 'lookup', arguments: { symbol: 'ACME' } }] },
    { toolCalls: [{ name: 'exit_plan', arguments: { plan: 'Record the ACME price.' } }] },
    { toolCalls: [{ name: 'record', arguments: { line: 42 } }] },
    { text: 'Recorded 42.' },
  ],
  'two-calls.json': [
    {
      toolCalls: [
        { name: 'lookup', arguments: { symbol: 'ACME' } },
        { name: 'lookup', arguments: { symbol: 'ACME' } },
      ],
    },
    { text: 'Never asked.' },
  ],
});
afterAll(() => temp.cleanup());

/** `plan agent <args> --tools tools.mjs` in this process, from the temp dir. */
const agent = (args: string[], env: Record<string, string | undefined> = {}) =>
  planInProcess(['agent', ...args, '--tools', join(temp.dir, 'tools.mjs')], '', { cwd: temp.dir, env });
const writes = () => {
  try {
    return readFileSync(join(temp.dir, 'writes.log'), 'utf8');
  } catch {
    return '';
  }
};

describe('plan agent (scripted model)', () => {
  it('runs the plan loop: the solution runs, the answer goes to stdout, exit 0', async () => {
    const before = writes();
    const r = await agent(['ACME', '--model', 'scripted:solve.json']);
    expect(r.stderr).toContain('solution 1: 2 call(s)');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ price: 42 });
    expect(writes().slice(before.length)).toBe('42\n');
  });

  it('--json prints one object with the status, the output, the state and each run', async () => {
    const r = await agent(['ACME', '--model', 'scripted:solve.json', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ status: 'done', output: { price: 42 }, iterations: 2 });
    expect(out.state).toEqual({ price: 42, logged: 'written' });
    expect(out.runs[0].calls.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ['price', 'succeeded'],
      ['log', 'succeeded'],
    ]);
  });

  it('lazy without a terminal and without --yes: nothing runs, exit 4', async () => {
    const before = writes();
    const r = await agent(['ACME', '--model', 'scripted:lazy.json', '--mode', 'lazy']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/no terminal to ask on; pass --yes/);
    expect(writes()).toBe(before);
  });

  it('--plan-mode --yes: investigates read-only, approves the plan, then carries it out', async () => {
    const before = writes();
    const r = await agent(
      ['record the ACME price', '--model', 'scripted:plan-mode.json', '--plan-mode', '--yes'],
      {},
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Recorded 42.\n');
    expect(r.stderr).toMatch(/✓ lookup: 42/);
    expect(r.stderr).toMatch(/✓ record: written/);
    expect(writes().slice(before.length)).toBe('42\n');
  });

  it('--plan-mode without a terminal and without --yes: the plan is rejected, nothing is written, exit 4', async () => {
    const before = writes();
    const r = await agent(['record the ACME price', '--model', 'scripted:plan-mode.json', '--plan-mode']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/pass --yes/);
    expect(writes()).toBe(before);
  });

  it('--max-tool-calls-per-turn: a reply with more tool calls fails, and no call past the bound runs', async () => {
    const r = await agent([
      'look up ACME',
      '--model',
      'scripted:two-calls.json',
      '--plan-mode',
      '--yes',
      '--max-tool-calls-per-turn',
      '1',
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/more than 1 tool call/);
    // Each call starts as soon as it arrives: the first (within the bound) ran, the second did not.
    expect(r.stderr.match(/✓ lookup/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/the turn failed after some of its calls: ran lookup\n/);
    // Within the bound, the same reply's calls run.
    const within = await agent([
      'look up ACME',
      '--model',
      'scripted:two-calls.json',
      '--plan-mode',
      '--yes',
      '--max-tool-calls-per-turn',
      '2',
    ]);
    expect(within.stderr).toMatch(/✓ lookup: 42/);
  });

  it('--max-conversation-bytes: a conversation past it is not sent again', async () => {
    const r = await agent([
      'record the ACME price',
      '--model',
      'scripted:plan-mode.json',
      '--plan-mode',
      '--yes',
      '--max-conversation-bytes',
      '64',
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/64 bytes/);
  });

  it('the conversation bounds are for --plan-mode, and whole numbers', async () => {
    expectUsageError(
      await agent(['x', '--model', 'scripted:solve.json', '--max-tool-calls-per-turn', '3']),
      /--max-tool-calls-per-turn bounds the conversation of --plan-mode; use it with --plan-mode/,
    );
    expectUsageError(
      await agent(['x', '--model', 'scripted:solve.json', '--plan-mode', '--max-conversation-bytes', '0']),
      /--max-conversation-bytes/,
    );
  });

  it('--schema-format grammar: the plan schema asked for is the grammar one, and its nulls are dropped', async () => {
    const before = writes();
    const r = await agent([
      'ACME',
      '--model',
      'scripted:grammar.json',
      '--schema-format',
      'grammar',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ status: 'done', output: { price: 42 }, iterations: 2 });
    expect(out.runs[0].status).toBe('succeeded');
    expect(writes().slice(before.length)).toBe('42\n');
    // Without the flag the same nulls are values the compiler refuses: that solution does not run.
    const plain = JSON.parse((await agent(['ACME', '--model', 'scripted:grammar.json', '--json'])).stdout);
    expect(plain.runs[0].status).toBe('failed');
    expect(plain.runs[0].diagnostics.map((d: { code: string }) => d.code)).toContain('E_ON_ERROR');
    expect(writes().slice(before.length)).toBe('42\n');
  });

  it('--schema-format: one of three, for openai: and scripted: models, and for the plan loop only', async () => {
    expectUsageError(
      await agent(['x', '--model', 'scripted:solve.json', '--schema-format', 'gbnf']),
      /--schema-format.*gbnf.*json-schema, openai-strict, grammar/,
    );
    expectUsageError(
      await agent(['x', '--model', 'anthropic:claude-sonnet-4-6', '--schema-format', 'grammar'], {
        ANTHROPIC_API_KEY: 'k',
      }),
      /--schema-format is for openai: and scripted: models/,
    );
    expectUsageError(
      await agent(['x', '--model', 'scripted:solve.json', '--schema-format', 'grammar', '--todos']),
      /--schema-format is for the plan loop/,
    );
  });

  it('bad usage is one line and exit 2: no model, an unknown provider, no API key', async () => {
    expectUsageError(await agent(['x']), /needs --model/);
    expectUsageError(await agent(['x', '--model', 'acme:big']), /unknown provider "acme"/);
    expectUsageError(
      await agent(['x', '--model', 'openai:gpt-4o'], {
        OPENAI_API_KEY: undefined,
        OPENAI_BASE_URL: undefined,
      }),
      /OPENAI_API_KEY/,
    );
  });
});

/** A Chat Completions server: each request gets the next answer, streamed in small chunks. */
async function chatServer(answers: string[]) {
  const chunk = (delta: object, finish: string | null = null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'test-model',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  return startServer((_request, response: ServerResponse) => {
    const content = answers.shift() ?? '';
    startSse(response);
    sendEvent(response, chunk({ role: 'assistant', content: '' }));
    for (let i = 0; i < content.length; i += 16)
      sendEvent(response, chunk({ content: content.slice(i, i + 16) }));
    sendEvent(response, chunk({}, 'stop'));
    sendEvent(response, '[DONE]');
    response.end();
  });
}

/** The CLI in this process: the server answers from here between its awaits. */
const runAsync = (args: string[], env: Record<string, string>) =>
  planInProcess(args, '', { cwd: temp.dir, env });

/** `plan agent ACME` with the test tools, against the Chat Completions server at `url`. */
const agentAgainst = (url: string) => [
  'agent',
  'ACME',
  '--tools',
  join(temp.dir, 'tools.mjs'),
  '--model',
  'openai:test-model',
  '--base-url',
  `${url}/v1`,
];

describe('plan agent --model openai:... against a Chat Completions server on loopback', () => {
  it('sends the solution schema as response_format, streams, runs the solution and answers', async () => {
    const server = await chatServer([JSON.stringify(solution), JSON.stringify(answer)]);
    try {
      const r = await runAsync([...agentAgainst(server.url), '--json'], { OPENAI_API_KEY: 'sk-test-secret' });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'done', output: { price: 42 } });
      expect(server.requests).toHaveLength(2);
      const body = server.requests[0]!.body as {
        model: string;
        stream: boolean;
        response_format: { type: string; json_schema: { name: string; schema: unknown } };
        messages: { role: string; content: string }[];
      };
      expect(body).toMatchObject({ model: 'test-model', stream: true });
      expect(body.response_format.type).toBe('json_schema');
      expect(body.response_format.json_schema.name).toBe('solution');
      expect(JSON.stringify(body.response_format.json_schema.schema)).toContain('"const":"lookup"');
      expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test-secret');
      // The second request shows the state the first solution produced.
      const second = server.requests[1]!.body as { messages: { role: string; content: string }[] };
      expect(second.messages[1]!.content).toContain('"price": 42');
    } finally {
      await server.close();
    }
  });

  it('an API error is one line and exit 3, without the key', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: {
            message: 'Incorrect API key provided: sk-test-secret',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        }),
      );
    });
    try {
      const r = await runAsync(agentAgainst(server.url), { OPENAI_API_KEY: 'sk-test-secret' });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/401/);
      expect(r.stderr).not.toContain('sk-test-secret');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await server.close();
    }
  });
});

describe('plan agent --plan-mode on a terminal', () => {
  it('a reply other than yes or no goes to the model as feedback, and planning goes on', async () => {
    const { agentCommand, readPlanAnswer } = await import('../../src/cli/commands/agent.js');
    writeFileSync(
      join(temp.dir, 'feedback.json'),
      JSON.stringify([
        { toolCalls: [{ name: 'exit_plan', arguments: { plan: 'v1: record the price' } }] },
        { toolCalls: [{ name: 'exit_plan', arguments: { plan: 'v2: look it up, then record it' } }] },
        { text: 'Nothing else to do.' },
      ]),
    );
    const answers = ['look it up first\n', 'y\n'];
    let err = '';
    let out = '';
    const stdin = {
      isTTY: true,
      async *[Symbol.asyncIterator]() {
        for (const answer of answers) yield answer;
      },
    };
    const code = await agentCommand(
      'record the ACME price',
      {
        tools: join(temp.dir, 'tools.mjs'),
        model: `scripted:${join(temp.dir, 'feedback.json')}`,
        planMode: true,
      },
      {
        stdin,
        stdout: { write: (t: string) => (out += t) },
        stderr: { isTTY: true, write: (t: string) => (err += t) },
        env: { TERM: 'dumb', NO_COLOR: '1' },
      },
    );
    expect(code).toBe(0);
    expect(err).toContain('Carry out this plan? [y/N, or say what to change]');
    expect(err).toMatch(/✗ exit_plan: The plan was not approved\. Feedback: look it up first/);
    expect(err).toMatch(/✓ exit_plan: The plan was approved/);
    expect(out).toBe('Nothing else to do.\n');
    // y carries the plan out, n or nothing stops the agent, anything else is feedback.
    expect(readPlanAnswer(' YES ')).toBe(true);
    expect(() => readPlanAnswer('n')).toThrow(/rejected/);
    expect(() => readPlanAnswer(null)).toThrow(/rejected/);
    expect(readPlanAnswer('use the cache')).toEqual({ approved: false, feedback: 'use the cache' });
  });
});

describe('plan agent --todos (a todo plan, in process)', () => {
  const reply = (value: unknown) => ({ text: JSON.stringify(value) });
  const todos = tempDir({
    'tools.mjs': TOOLS,
    'todos.json': [
      reply({
        todos: [
          { id: 't1', description: 'Look up the ACME price', intent: 'Know the price' },
          { id: 't2', description: 'Record the price', intent: 'Keep it in the log' },
        ],
      }),
      { toolCalls: [{ name: 'lookup', arguments: { symbol: 'ACME' } }] },
      { text: 'ACME is 42.' },
      reply({ action: 'continue', changes: [], result: null }),
      { toolCalls: [{ name: 'record', arguments: { line: 42 } }] },
      { text: 'Recorded 42.' },
      reply({
        action: 'revise',
        changes: [
          { type: 'add', id: 't3', description: 'Look the price up again', intent: 'Check it', before: null },
        ],
        result: null,
      }),
      { toolCalls: [{ name: 'lookup', arguments: { symbol: 'ACME' } }] },
      { text: 'Still 42.' },
      reply({ action: 'finish', changes: [], result: 'ACME is 42, and it is recorded.' }),
    ],
  });
  afterAll(() => todos.cleanup());
  const todosLog = () => {
    try {
      return readFileSync(join(todos.dir, 'writes.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const agentTodos = (...args: string[]) =>
    planInProcess([
      'agent',
      'record the ACME price',
      '--todos',
      '--tools',
      join(todos.dir, 'tools.mjs'),
      '--model',
      `scripted:${join(todos.dir, 'todos.json')}`,
      ...args,
    ]);

  it('--yes: prints each todo as it starts and ends, the revision and the end; the result goes to stdout', async () => {
    const before = todosLog();
    const r = await agentTodos('--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('ACME is 42, and it is recorded.\n');
    const lines = r.stderr.split('\n');
    expect(
      lines.filter((l) => /^(todos:| {2}\d\.|▶|✓|✗|reflection|revised| {2}[+~-]|plan )/.test(l)),
    ).toEqual([
      'todos:',
      '  1. t1: Look up the ACME price',
      '  2. t2: Record the price',
      '▶ t1: Look up the ACME price',
      '✓ lookup: 42',
      '✓ t1 completed',
      'reflection 1: continue',
      '▶ t2: Record the price',
      '✓ record: written',
      '✓ t2 completed',
      'reflection 2: revise',
      'revised:',
      '  + t3: Look the price up again',
      '▶ t3: Look the price up again',
      '✓ lookup: 42',
      '✓ t3 completed',
      'reflection 3: finish',
      'plan completed',
    ]);
    expect(r.stderr).toContain('→ lookup {"symbol":"ACME"}');
    expect(todosLog().slice(before.length)).toBe('42\n');
  });

  it("--json prints the plan's final JSON alone", async () => {
    const r = await agentTodos('--yes', '--json');
    expect(r.code).toBe(0);
    // No progress; only the line --yes writes for the approval it gave in a person's place.
    expect(r.stderr).toMatch(/^approved by --yes: plan "[^\n]*Look up the ACME price[^\n]*"\n$/);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ version: 1, state: 'completed', result: 'ACME is 42, and it is recorded.' });
    expect(plan.todos.map((t: { id: string; status: string }) => `${t.id} ${t.status}`)).toEqual([
      't1 completed',
      't2 completed',
      't3 completed',
    ]);
    expect(plan.todos[0].result.data).toEqual({ call_2_1: 42 });
    expect(plan.history.map((h: { phase: string }) => h.phase)).toEqual([
      'create',
      'todo',
      'reflect',
      'todo',
      'reflect',
      'todo',
      'reflect',
    ]);
  });

  it('without a terminal and without --yes, the todos are rejected: nothing runs, exit 4', async () => {
    const before = todosLog();
    const r = await agentTodos();
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /the plan was rejected without feedback\. there is no terminal to ask on; pass --yes/,
    );
    expect(r.stdout).toBe('');
    expect(todosLog()).toBe(before);
  });

  it('out of iterations before the model finishes: exit 3, saying so', async () => {
    const r = await agentTodos('--yes', '--max-iterations', '1');
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'plan ended: out of iterations (at most 1 reflection) before the model finished',
    );
  });

  it('--todos with --plan-mode or --mode is a usage error', async () => {
    expectOneLineUsageError(
      await agentTodos('--plan-mode'),
      /--todos and --plan-mode are two ways to plan first/,
    );
    expectOneLineUsageError(await agentTodos('--mode', 'lazy'), /--mode is for the plan loop/);
  });

  it('on a terminal, the todos are asked about; feedback goes to the model for a new list', async () => {
    const { agentCommand } = await import('../../src/cli/commands/agent.js');
    writeFileSync(
      join(todos.dir, 'feedback.json'),
      JSON.stringify([
        reply({ todos: [{ id: 't1', description: 'Record 42', intent: 'Log it' }] }),
        reply({ todos: [{ id: 't1', description: 'Look up the price', intent: 'Know it' }] }),
        { text: 'It is 42.' },
        reply({ action: 'finish', changes: [], result: 'The price is 42.' }),
      ]),
    );
    const answers = ['look it up instead\n', 'y\n'];
    let err = '';
    let out = '';
    const code = await agentCommand(
      'what is the ACME price?',
      {
        tools: join(todos.dir, 'tools.mjs'),
        model: `scripted:${join(todos.dir, 'feedback.json')}`,
        todos: true,
      },
      {
        stdin: {
          isTTY: true,
          async *[Symbol.asyncIterator]() {
            for (const answer of answers) yield answer;
          },
        },
        stdout: { write: (t: string) => (out += t) },
        stderr: { isTTY: true, write: (t: string) => (err += t) },
        env: { TERM: 'dumb', NO_COLOR: '1' },
      },
    );
    expect(code).toBe(0);
    expect(err).toContain('1. Record 42 (t1: Log it)\n\nCarry out this plan? [y/N, or say what to change]');
    expect(err).toContain('1. Look up the price (t1: Know it)\n\nCarry out this plan?');
    expect(out).toBe('The price is 42.\n');
  });
});

describe('plan agent --context and --system-prompt (the plan loop started from a context)', () => {
  const files = tempDir({
    'tools.mjs': TOOLS,
    'context.json': `[
      // The walkthrough's own notation: comments, a tool message, a trailing comma.
      { "type": "tool", "tool": "Tool.lookup" },
      { "type": "input", "symbol": "ACME" },
    ]`,
    'unknown-tool.json': '[{ "type": "tool", "tool": "Tool.sendMoney" }]',
    'from-context.json': [
      text({
        calls: [{ _tool: 'lookup', symbol: '†input.symbol', _outputPath: '†state.price' }],
        output: null,
      }),
      text({ calls: [], output: { price: '†state.price' } }),
    ],
  });
  afterAll(() => files.cleanup());
  const at = (name: string) => join(files.dir, name);

  it('starts from the context: its input (and its comments, tool message and trailing comma) are read', async () => {
    const r = await planInProcess([
      'agent',
      'price check',
      '--tools',
      at('tools.mjs'),
      '--model',
      `scripted:${at('from-context.json')}`,
      '--context',
      at('context.json'),
      '--system-prompt',
      'Be brief.',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { status: string; state: Record<string, unknown> };
    expect(out.status).toBe('done');
    expect(out.state.price).toBe(42);
  });

  it('a context naming a tool that does not exist is exit 2 with one line, before any model is asked', async () => {
    expectOneLineUsageError(
      await planInProcess([
        'agent',
        'x',
        '--tools',
        at('tools.mjs'),
        '--model',
        `scripted:${at('from-context.json')}`,
        '--context',
        at('unknown-tool.json'),
      ]),
      /context file '.*unknown-tool\.json': .*sendMoney/,
    );
  });

  it('--context and --system-prompt are for the plan loop, not --plan-mode or --todos', async () => {
    for (const extra of [['--plan-mode'], ['--todos']]) {
      expectOneLineUsageError(
        await planInProcess([
          'agent',
          'x',
          '--tools',
          at('tools.mjs'),
          '--model',
          `scripted:${at('from-context.json')}`,
          '--system-prompt',
          'Be brief.',
          ...extra,
        ]),
        /--system-prompt is for the plan loop/,
      );
    }
  });
});
