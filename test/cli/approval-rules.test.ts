/**
 * Modes and approval on the command line, in process through main():
 * - `--mode eager` cannot run a plan (or a --context) that says lazy eagerly: one line says so,
 *   and the plan stays lazy (exit 4 without --yes);
 * - `--yes` answers plan and call requests alike and says so, one bounded line per approval;
 * - in `plan agent`, a call of a tool that needs approval is asked about (approved by --yes,
 *   rejected off a terminal without it), and a loop with a rejected call exits 4.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const TOOLS = `
import { appendFileSync } from 'node:fs';
const log = (tool, args) =>
  appendFileSync(new URL('./calls.log', import.meta.url), JSON.stringify({ tool, args }) + '\\n');
export const tools = [
  {
    name: 'quoteRefund',
    inputSchema: { type: 'object', properties: { customerId: { type: 'string' } }, required: ['customerId'] },
    annotations: { readOnlyHint: true },
    execute: (args) => { log('quoteRefund', args); return { amount: 50 }; },
  },
  {
    name: 'issueRefund',
    needsApproval: true,
    inputSchema: {
      type: 'object',
      properties: { customerId: { type: 'string' }, amount: { type: 'number' }, note: { type: 'string' } },
      required: ['customerId', 'amount'],
    },
    execute: (args) => { log('issueRefund', args); return { id: 'refund_1' }; },
  },
];
`;

const PLAN = [
  { _id: 'quote', _tool: 'quoteRefund', customerId: '†input.customerId', _outputPath: '†state.quote' },
  {
    _id: 'refund',
    _tool: 'issueRefund',
    customerId: '†input.customerId',
    amount: '†state.quote.amount',
    _outputPath: '†state.refund',
  },
];
const solution = { calls: PLAN, output: null };
const answer = { calls: [], output: 'Refunded 50.' };
const text = (value: unknown) => ({ text: JSON.stringify(value) });

const { dir, cleanup } = tempDir({
  'tools.mjs': TOOLS,
  'input.json': { customerId: 'cust_123' },
  'lazy.json': { type: 'plan', mode: 'lazy', plan: PLAN },
  'huge.json': [
    { _id: 'refund', _tool: 'issueRefund', customerId: 'c', amount: 1, note: 'n'.repeat(100_000) },
  ],
  'solve.json': [text(solution), text(answer)],
  'context.json': '[{ "type": "input", "customerId": "cust_123" }]',
  'lazy-context.json':
    '[\n  { "type": "input", "customerId": "cust_123" },\n  { "type": "plan", "mode": "lazy", "plan": [] }\n]',
  'plan-mode.json': [
    { toolCalls: [{ name: 'exit_plan', arguments: { plan: 'Refund cust_123 50.' } }] },
    { toolCalls: [{ id: 'c1', name: 'issueRefund', arguments: { customerId: 'cust_123', amount: 50 } }] },
    { text: 'Refunded.' },
  ],
});
afterAll(cleanup);

const LOG = join(dir, 'calls.log');
beforeEach(() => rmSync(LOG, { force: true }));

/** The tools that ran, in order. */
function ran(): string[] {
  if (!existsSync(LOG)) return [];
  return readFileSync(LOG, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { tool: string }).tool);
}

const plan = (args: string[]) => planInProcess(args, '', { cwd: dir });
const refundLine = 'approved by --yes: call refund issueRefund {"customerId":"cust_123","amount":50}\n';

describe('plan run: the lazier mode wins', () => {
  it('--mode eager on a plan that says lazy: one line says so, and it stays lazy (not approved: exit 4)', async () => {
    const r = await plan([
      'run',
      'lazy.json',
      '--tools',
      'tools.mjs',
      '--input',
      'input.json',
      '--mode',
      'eager',
    ]);
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n').filter((l) => l !== '')).toEqual([
      'plan: --mode eager does not apply: lazy.json says "mode": "lazy", and an option can only make a plan lazier; it runs as a lazy plan, once approved',
      'plan: not running lazy.json: a lazy plan runs only once approved, and there is no terminal to ask on; pass --yes to approve it',
    ]);
    expect(ran()).toEqual([]);
  });

  it('--mode eager --yes: the plan is approved as a lazy plan, and its call that needs approval by itself', async () => {
    const r = await plan([
      'run',
      'lazy.json',
      '--tools',
      'tools.mjs',
      '--input',
      'input.json',
      '--mode',
      'eager',
      '--yes',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('approved by --yes: lazy.json (lazy plan, 2 calls)\n');
    expect(r.stderr).toContain(refundLine);
    expect(ran()).toEqual(['quoteRefund', 'issueRefund']);
  });
});

describe('plan run --yes says what it approved', () => {
  it('one line per approval, its arguments resolved and cut at 200 characters', async () => {
    const r = await plan(['run', 'huge.json', '--tools', 'tools.mjs', '--yes', '--json']);
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^approved by --yes: call refund issueRefund \{"customerId":"c","amount":1,"note":"n+… \(99,839 more characters\)$/,
    );
    expect(lines[0]!.length).toBeLessThan(300);
  });
});

describe('plan agent: modes and approval in the plan loop', () => {
  const agent = (args: string[]) =>
    plan(['agent', 'refund the last order', '--tools', 'tools.mjs', '--context', 'context.json', ...args]);

  it('--yes approves the call that needs approval, with its resolved arguments, and says so', async () => {
    const r = await agent(['--model', 'scripted:solve.json', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Refunded 50.\n');
    expect(r.stderr).toContain(refundLine);
    expect(ran()).toEqual(['quoteRefund', 'issueRefund']);
  });

  it('without --yes and without a terminal: the call is rejected, the loop does not end done, exit 4', async () => {
    const r = await agent(['--model', 'scripted:solve.json']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /1 call was rejected: its tool needs approval, and there is no terminal to ask on; pass --yes/,
    );
    expect(ran()).toEqual(['quoteRefund']);
    const json = await agent(['--model', 'scripted:solve.json', '--json']);
    expect(json.code).toBe(4);
    const out = JSON.parse(json.stdout) as {
      status: string;
      runs: { calls: { id: string; status: string }[] }[];
    };
    expect(out.status).toBe('rejected');
    expect(out.runs[0]!.calls.map((c) => `${c.id} ${c.status}`)).toEqual([
      'quote succeeded',
      'refund rejected',
    ]);
  });

  it('--mode eager with a context that says lazy: one line says so, and the solution is not run unapproved', async () => {
    const r = await plan([
      'agent',
      'refund the last order',
      '--tools',
      'tools.mjs',
      '--context',
      'lazy-context.json',
      '--model',
      'scripted:solve.json',
      '--mode',
      'eager',
    ]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /^plan: --mode eager does not apply: the context lazy-context\.json says "mode": "lazy", and an option can only make a plan lazier; each solution runs lazily, once approved\n/,
    );
    expect(ran()).toEqual([]);
  });

  it('a lazy context with --yes: the solution and then the call are approved, each with its line', async () => {
    const r = await plan([
      'agent',
      'refund the last order',
      '--tools',
      'tools.mjs',
      '--context',
      'lazy-context.json',
      '--model',
      'scripted:solve.json',
      '--yes',
    ]);
    expect(r.code).toBe(0);
    const yesLines = r.stderr.split('\n').filter((l) => l.startsWith('approved by --yes: '));
    expect(yesLines).toEqual(['approved by --yes: solution 1 (lazy plan, 2 calls)', refundLine.trimEnd()]);
  });

  it('--plan-mode --yes: the plan and the model’s call of a tool that needs approval are approved, each said', async () => {
    const r = await plan([
      'agent',
      'refund cust_123',
      '--tools',
      'tools.mjs',
      '--model',
      'scripted:plan-mode.json',
      '--plan-mode',
      '--yes',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('approved by --yes: plan "Refund cust_123 50."\n');
    expect(r.stderr).toContain(
      'approved by --yes: call c1 issueRefund {"customerId":"cust_123","amount":50}\n',
    );
    expect(ran()).toEqual(['issueRefund']);
  });
});

describe('plan agent on a terminal', () => {
  it('asks about the call that needs approval with its resolved arguments; a no ends the loop rejected, exit 4', async () => {
    const { agentCommand } = await import('../../src/cli/commands/agent.js');
    const ask = async (answer: string) => {
      let err = '';
      const stdin = {
        isTTY: true,
        async *[Symbol.asyncIterator]() {
          yield answer;
        },
      };
      const code = await agentCommand(
        'refund the last order',
        {
          tools: join(dir, 'tools.mjs'),
          model: `scripted:${join(dir, 'solve.json')}`,
          context: join(dir, 'context.json'),
        },
        {
          stdin,
          stdout: { write: () => true },
          stderr: { isTTY: true, write: (t: string) => (err += t) },
          env: { TERM: 'dumb', NO_COLOR: '1' },
        },
      );
      return { code, err };
    };
    const no = await ask('n\n');
    expect(no.err).toContain('Run refund (issueRefund) with {"customerId":"cust_123","amount":50}? [y/N] ');
    expect(no.code).toBe(4);
    expect(ran()).toEqual(['quoteRefund']);
    rmSync(LOG, { force: true });
    const yes = await ask('y\n');
    expect(yes.code).toBe(0);
    expect(ran()).toEqual(['quoteRefund', 'issueRefund']);
  });
});
