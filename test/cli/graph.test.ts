import { afterAll, describe, expect, it } from 'vitest';
import { ANSI_ESCAPE, MANIFEST, PLANS, tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const { dir, cleanup } = tempDir({
  'plan.json': PLANS.valid,
  'warning.json': PLANS.warning,
  'invalid.json': PLANS.invalid,
  'tools.json': MANIFEST,
  'unknown-tool.json': [{ _tool: 'get_usr', id: 1 }],
  // The refund walkthrough: no data between the calls; the refund is an effect.
  'refund.json': [
    { _id: 'history', _tool: 'checkBillingHistory', customerId: 'cust_123' },
    { _id: 'refund', _tool: 'issueRefund', customerId: 'cust_123', amount: 50 },
    { _id: 'archive', _tool: 'checkBillingHistory', customerId: 'cust_123', _after: ['history'] },
  ],
  'refund-tools.json': {
    tools: [
      { name: 'checkBillingHistory', annotations: { readOnlyHint: true } },
      {
        name: 'issueRefund',
        annotations: { readOnlyHint: false, destructiveHint: true },
        needsApproval: true,
      },
    ],
  },
});
afterAll(cleanup);
/** `plan <args>` in this process, from the temp dir. */
const run = (args: string[], stdin = '') => planInProcess(args, stdin, { cwd: dir });

describe('plan graph', () => {
  it('prints Mermaid by default, on stdout only', async () => {
    const r = await run(['graph', 'plan.json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^plan: note: no --tools given: tool names and arguments were not checked/);
    expect(r.stdout).toMatch(/^%% .*\nflowchart TD\n/);
    expect(r.stdout).toContain('n0["fetch: get_user<br/>→ †state.user"]');
    expect(r.stdout).toContain('n1{{"check: check_user<br/>→ †state.ok || †state.err"}}');
    expect(r.stdout).toMatch(/n0 -->\|"†state\.user\.name"\| n1/);
    expect(r.stdout).toMatch(/n1 -->\|"[^"]*†state\.ok[^"]*"\| n2/);
    expect((await run(['graph', 'plan.json', '--format', 'mermaid'])).stdout).toBe(r.stdout);
  });

  it('prints Graphviz DOT', async () => {
    const r = await run(['graph', 'plan.json', '--format', 'dot', '--tools', 'tools.json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/digraph plan \{\n/);
    expect(r.stdout).toContain('n0 [label="fetch: get_user\\n→ †state.user"];');
    expect(r.stdout).toContain('n1 [label="check: check_user\\n→ †state.ok || †state.err", shape=hexagon];');
    expect(r.stdout).toContain('n0 -> n1 [label="†state.user.name"];');
    expect(r.stdout.trimEnd().endsWith('}')).toBe(true);
  });

  it('prints JSON with --format json or --json', async () => {
    const r = await run(['graph', 'plan.json', '--format', 'json', '--tools', 'tools.json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const graph = JSON.parse(r.stdout);
    expect(graph.nodes.map((n: { id: string; tool: string }) => `${n.id}:${n.tool}`)).toEqual([
      'fetch:get_user',
      'check:check_user',
      'notify:notify',
    ]);
    expect(graph.nodes[1].output).toEqual({
      text: '†state.ok || †state.err',
      op: '||',
      paths: ['†state.ok', '†state.err'],
    });
    expect(graph.edges).toContainEqual({
      from: 'fetch',
      to: 'check',
      kind: 'data',
      path: '†state.user.name',
      paths: ['†state.user.name'],
    });
    // notify is an effect (readOnlyHint: false): it waits for every earlier call, fetch included.
    expect(graph.edges.map((e: { from: string; to: string }) => `${e.from}->${e.to}`)).toEqual([
      'fetch->check',
      'check->notify',
      'fetch->notify',
    ]);
    expect(graph.order).toEqual(['fetch', 'check', 'notify']);
    // With the same tools: without them, nothing says notify is an effect.
    expect((await run(['graph', 'plan.json', '--json', '--tools', 'tools.json'])).stdout).toBe(r.stdout);
  });

  it('draws order-only edges dashed in every format', async () => {
    const mermaid = await run(['graph', 'warning.json']);
    expect(mermaid.code).toBe(0);
    expect(mermaid.stdout).toMatch(/n0 -\.->\|"†state\.x"\| n1/);
    // The warning goes to stderr, so the graph on stdout stays clean.
    expect(mermaid.stderr).toMatch(/^warning\.json:\d+:\d+: warning W_MULTIPLE_WRITERS: /);
    expect((await run(['graph', 'warning.json', '--format', 'dot'])).stdout).toContain(
      'n0 -> n1 [label="†state.x", style=dashed];',
    );
    const json = JSON.parse((await run(['graph', 'warning.json', '--json'])).stdout);
    expect(json.edges).toEqual([
      { from: '0', to: '1', kind: 'order', path: '†state.x', paths: ['†state.x'] },
    ]);
  });

  it("draws program order (an effect's, and _after) as order edges, dashed, with their reason", async () => {
    const args = ['graph', 'refund.json', '--tools', 'refund-tools.json'];
    const mermaid = await run(args);
    expect(mermaid.code).toBe(0);
    expect(mermaid.stdout).toContain('%% planmode eager plan: 3 calls, 3 edges');
    expect(mermaid.stdout).toContain('n0 -.->|"effect order"| n1');
    expect(mermaid.stdout).toContain('n1 -.->|"effect order"| n2');
    const dot = (await run([...args, '--format', 'dot'])).stdout;
    expect(dot).toContain('n0 -> n1 [label="effect order", style=dashed];');
    const json = JSON.parse((await run([...args, '--json'])).stdout);
    expect(json.edges).toEqual([
      { from: 'history', to: 'refund', kind: 'order', path: '', paths: [], reason: 'effect' },
      { from: 'refund', to: 'archive', kind: 'order', path: '', paths: [], reason: 'effect' },
      { from: 'history', to: 'archive', kind: 'order', path: '', paths: [], reason: 'after' },
    ]);
    expect(json.criticalPath).toEqual(['history', 'refund', 'archive']);
    // The _after edge draws the same way, labelled _after.
    expect(mermaid.stdout).toContain('n0 -.->|"_after"| n2');
    expect(dot).toContain('n0 -> n2 [label="_after", style=dashed];');
  });

  it('reads the plan from stdin', async () => {
    const r = await run(['graph', '-', '--format', 'dot'], JSON.stringify(PLANS.valid));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\/\/ .*\ndigraph plan/);
  });

  it('exits 1 for an invalid plan, with diagnostics on stderr and nothing on stdout', async () => {
    for (const format of ['mermaid', 'dot', 'json']) {
      const r = await run(['graph', 'invalid.json', '--format', format]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^invalid\.json:\d+:\d+: error E_/m);
      expect(r.stderr).not.toMatch(ANSI_ESCAPE);
    }
    const r = await run(['graph', 'unknown-tool.json', '--tools', 'tools.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/E_UNKNOWN_TOOL/);
  });

  it('prints its help with exit 0', async () => {
    const r = await run(['graph', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--format <format>/);
  });
});
