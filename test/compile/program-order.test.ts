/**
 * Effects follow program order (a call to a tool with effects waits for every earlier call,
 * and every later call waits for it), `_after` orders a call without data, `_independent` and
 * a tool's `independent` opt out. All as order edges with a reason, in the compiled graph.
 */
import { describe, expect, it } from 'vitest';
import { type CompiledPlan, compile, type Dependency, simulate, type Tool } from '../../src/index.js';
import { compileErrors, compileOk, doc, only, positionOfText } from './helpers.js';

const read: Tool = { name: 'read', annotations: { readOnlyHint: true } };
const plain: Tool = { name: 'plain' };
const act: Tool = { name: 'act', annotations: { readOnlyHint: false } };
const approved: Tool = { name: 'approved', needsApproval: true };
const destroy: Tool = { name: 'destroy', annotations: { destructiveHint: true } };
const TOOLS = [read, plain, act, approved, destroy];

/** Each call's dependencies as `from:kind[:reason]`, in the order the compiler lists them. */
function edges(plan: CompiledPlan): string[][] {
  return plan.calls.map((call) => call.dependencies.map(show(plan)));
}
const show = (plan: CompiledPlan) => (d: Dependency) =>
  `${plan.calls[d.from]!.id}:${d.kind}${d.reason ? `:${d.reason}` : ''}`;

const ids = (plan: CompiledPlan, indices: readonly number[]) => indices.map((i) => plan.calls[i]!.id);

describe('effects follow program order', () => {
  it('the refund waits for the history check, though no data flows between them', () => {
    const plan = compileOk(
      [
        { _id: 'history', _tool: 'read', customerId: 'cust_123' },
        { _id: 'refund', _tool: 'destroy', customerId: 'cust_123', amount: 50 },
      ],
      { tools: TOOLS },
    );
    expect(plan.calls[1]!.dependencies).toEqual([{ from: 0, kind: 'order', path: '', reason: 'effect' }]);
    expect(ids(plan, plan.criticalPath)).toEqual(['history', 'refund']);
    expect(plan.levels).toEqual([0, 1]);
    expect(plan.edgeCount).toBe(1);
  });

  it('needsApproval, destructiveHint and readOnlyHint: false each make an effect', () => {
    for (const tool of ['act', 'approved', 'destroy']) {
      const plan = compileOk([{ _tool: 'read' }, { _tool: tool }, { _tool: 'read' }], { tools: TOOLS });
      expect(edges(plan), tool).toEqual([[], ['0:order:effect'], ['1:order:effect']]);
    }
  });

  it('an effect waits for the last effect and every call since; any other call for the last effect', () => {
    const plan = compileOk(
      [
        { _id: 'r0', _tool: 'read' },
        { _id: 'r1', _tool: 'plain' },
        { _id: 'e2', _tool: 'act' },
        { _id: 'r3', _tool: 'read' },
        { _id: 'r4', _tool: 'read' },
        { _id: 'e5', _tool: 'destroy' },
        { _id: 'r6', _tool: 'read' },
        { _id: 'e7', _tool: 'approved' },
      ],
      { tools: TOOLS },
    );
    expect(edges(plan)).toEqual([
      [],
      [],
      ['r0:order:effect', 'r1:order:effect'],
      ['e2:order:effect'],
      ['e2:order:effect'],
      ['e2:order:effect', 'r3:order:effect', 'r4:order:effect'],
      ['e5:order:effect'],
      ['e5:order:effect', 'r6:order:effect'],
    ]);
    // Linear: at most two edges per call.
    expect(plan.edgeCount).toBeLessThanOrEqual(2 * plan.calls.length);
    expect(ids(plan, plan.criticalPath)).toEqual(['r0', 'e2', 'r3', 'e5', 'r6', 'e7']);
  });

  it('makes no edge where the data flow has one already', () => {
    const plan = compileOk(
      [
        { _id: 'fetch', _tool: 'read', _outputPath: '†state.user' },
        { _id: 'save', _tool: 'act', user: '†state.user' },
        { _id: 'show', _tool: 'read', user: '†state.user' },
      ],
      { tools: TOOLS },
    );
    expect(edges(plan)).toEqual([[], ['fetch:data'], ['fetch:data', 'save:order:effect']]);
  });

  it('leaves a plan of plain tools exactly as its data flow makes it', () => {
    // Read-only tools, tools that declare nothing, and a latent tool (whose result the model
    // writes) even with needsApproval: no edge of program order, the same graph as without tools.
    const tools: Tool[] = [
      read,
      plain,
      { name: 'guess', latent: true, needsApproval: true, annotations: { readOnlyHint: false } },
      { name: 'claim', annotationsTrusted: false, annotations: { readOnlyHint: true } },
    ];
    const calls = [
      { _id: 'a', _tool: 'read', _outputPath: '†state.a' },
      { _id: 'b', _tool: 'plain', x: '†state.a', _outputPath: '†state.b' },
      { _id: 'c', _tool: 'claim', _outputPath: '†state.a' },
      { _id: 'd', _tool: 'guess', _output: 1, _outputPath: '†state.d' },
      { _id: 'e', _tool: 'read', x: '†state.b', y: '†state.d' },
      { _id: 'f', _tool: 'plain' },
    ];
    const withTools = compileOk(calls, { tools });
    const without = compileOk(calls);
    expect(edges(withTools)).toEqual([[], ['a:data'], ['a:order', 'b:order'], [], ['b:data', 'd:data'], []]);
    expect(edges(withTools)).toEqual(edges(without));
    expect(withTools.order).toEqual(without.order);
    expect(withTools.levels).toEqual(without.levels);
    expect(withTools.criticalPath).toEqual(without.criticalPath);
    expect(withTools.edgeCount).toBe(without.edgeCount);
  });

  it('without tools, no call is known to have effects', () => {
    const plan = compileOk([{ _tool: 'read' }, { _tool: 'destroy' }]);
    expect(edges(plan)).toEqual([[], []]);
  });
});

describe('_independent and independent: true', () => {
  const calls = (refund: Record<string, unknown>) => [
    { _id: 'history', _tool: 'read' },
    { _id: 'refund', _tool: 'destroy', ...refund },
    { _id: 'after', _tool: 'read', _outputPath: '†state.x' },
    { _id: 'next', _tool: 'act' },
  ];

  it('_independent: true takes an effect out of program order, both ways', () => {
    const plan = compileOk(calls({ _independent: true }), { tools: TOOLS });
    // refund waits for nothing and nothing waits for it; next is an effect still, and waits
    // for every earlier call in program order (history, after), not for refund.
    expect(edges(plan)).toEqual([[], [], [], ['history:order:effect', 'after:order:effect']]);
  });

  it('keeps its data edges and its _after', () => {
    const plan = compileOk(
      [
        { _id: 'fetch', _tool: 'read', _outputPath: '†state.user' },
        { _id: 'log', _tool: 'read' },
        { _id: 'save', _tool: 'act', user: '†state.user', _after: ['log'], _independent: true },
      ],
      { tools: TOOLS },
    );
    expect(edges(plan)).toEqual([[], [], ['fetch:data', 'log:order:after']]);
  });

  it('a tool marked independent: true is out of program order for all its calls', () => {
    const tools = [read, act, { ...destroy, independent: true }];
    const plan = compileOk(calls({}), { tools });
    expect(edges(plan)).toEqual([[], [], [], ['history:order:effect', 'after:order:effect']]);
  });

  it('_independent must be a boolean', () => {
    const text = doc([{ _tool: 'destroy', _independent: 'yes' }]);
    const d = only(compileErrors(text, { tools: TOOLS }).diagnostics, 'E_SHAPE');
    expect(d.pointer).toBe('/0/_independent');
    expect(d.message).toBe('_independent must be true or false, not a string ("yes")');
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(text, '"yes"'));
  });
});

describe('_after', () => {
  it('orders a call after others without data, by id or by index', () => {
    const plan = compileOk([
      { _id: 'send', _tool: 'plain' },
      { _tool: 'plain' },
      { _id: 'archive', _tool: 'plain', _after: ['send', '1'] },
    ]);
    expect(edges(plan)).toEqual([[], [], ['send:order:after', '1:order:after']]);
    expect(plan.calls[2]!.dependencies[0]).toEqual({ from: 0, kind: 'order', path: '', reason: 'after' });
    expect(ids(plan, plan.criticalPath)).toEqual(['send', 'archive']);
  });

  it('may name a later call, which then runs first', () => {
    const plan = compileOk([
      { _id: 'summary', _tool: 'plain', _after: ['fetch'] },
      { _id: 'fetch', _tool: 'plain' },
    ]);
    expect(edges(plan)).toEqual([['fetch:order:after'], []]);
    expect(ids(plan, plan.order)).toEqual(['fetch', 'summary']);
  });

  it('adds no second edge where a read binds the same calls', () => {
    const plan = compileOk([
      { _id: 'use', _tool: 'plain', x: '†state.v', _after: ['make'] },
      { _id: 'make', _tool: 'plain', _outputPath: '†state.v' },
    ]);
    expect(edges(plan)).toEqual([['make:data'], []]);
  });

  it('an unknown id is E_AFTER at the exact string, with the id it likely meant', () => {
    const text = doc([
      { _id: 'check', _tool: 'plain' },
      { _id: 'refund', _tool: 'plain', _after: ['chek'] },
    ]);
    const d = only(compileErrors(text).diagnostics, 'E_AFTER');
    expect(d).toMatchObject({
      pointer: '/1/_after/0',
      call: 'refund',
      message: `_after names "chek", which is no call's id`,
      hint: 'did you mean "check"?',
    });
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(text, '"chek"'));
  });

  it('refuses what is not a list of distinct call ids', () => {
    const result = compileErrors([
      { _id: 'a', _tool: 'plain' },
      { _id: 'b', _tool: 'plain', _after: 'a' },
      { _id: 'c', _tool: 'plain', _after: ['a', 'a', 7, ''] },
    ]);
    expect(result.diagnostics.map((d) => [d.code, d.pointer, d.message])).toEqual([
      ['E_AFTER', '/1/_after', '_after must be an array of call ids, not a string ("a")'],
      ['E_AFTER', '/2/_after/1', '_after names "a" twice'],
      ['E_AFTER', '/2/_after/2', 'an _after entry must be a call id (a non-empty string), not a number (7)'],
      ['E_AFTER', '/2/_after/3', 'an _after entry must be a call id (a non-empty string), not a string ("")'],
    ]);
  });

  it('naming the call itself is E_CYCLE at that entry', () => {
    const text = doc([{ _id: 'a', _tool: 'plain', _after: ['a'] }]);
    const d = only(compileErrors(text).diagnostics, 'E_CYCLE');
    expect(d.pointer).toBe('/0/_after/0');
    expect(d.message).toBe('dependency cycle: a -> a (call a is _after itself)');
    expect({ line: d.line, column: d.column }).toEqual(positionOfText(text, '"a"', 0, 1));
  });

  it('a cycle through _after is E_CYCLE named whole, with a reason per hop', () => {
    const text = doc([
      { _id: 'draft', _tool: 'plain', x: '†state.sent', _outputPath: '†state.draft' },
      { _id: 'review', _tool: 'plain', x: '†state.draft' },
      { _id: 'send', _tool: 'plain', _after: ['review'], _outputPath: '†state.sent' },
    ]);
    const d = only(compileErrors(text).diagnostics, 'E_CYCLE');
    expect(d.message).toBe(
      'dependency cycle: draft -> review -> send -> draft (call review reads †state.draft, which call draft writes; call send is _after review; call draft reads †state.sent, which call send writes later)',
    );
    expect(d.pointer).toBe('/2/_after/0');
    expect(d.hint).toContain('drop one of the _after entries on the cycle');
  });

  it('a cycle between program order and a forward reference says the effect waits for every earlier call', () => {
    const text = doc([
      { _id: 'report', _tool: 'read', confirmation: '†state.refund' },
      { _id: 'refund', _tool: 'destroy', _outputPath: '†state.refund' },
    ]);
    const d = only(compileErrors(text, { tools: TOOLS }).diagnostics, 'E_CYCLE');
    expect(d.message).toBe(
      'dependency cycle: report -> refund -> report (call refund (destroy) is an effect: it waits for every earlier call; call report reads †state.refund, which call refund writes later)',
    );
    expect(d.pointer).toBe('/0/confirmation');
    expect(d.hint).toContain('mark the effect "_independent": true');
    // Marked independent, the refund runs first, as the forward reference says.
    const ok = compileOk(
      [
        { _id: 'report', _tool: 'read', confirmation: '†state.refund' },
        { _id: 'refund', _tool: 'destroy', _outputPath: '†state.refund', _independent: true },
      ],
      { tools: TOOLS },
    );
    expect(ids(ok, ok.order)).toEqual(['refund', 'report']);
  });
});

describe('the critical path and the dry run count program order', () => {
  const tools: Tool[] = [
    { ...read, estimatedMs: 200 },
    { ...destroy, estimatedMs: 300 },
  ];
  const calls = (refund: Record<string, unknown> = {}) => [
    { _id: 'history', _tool: 'read' },
    { _id: 'refund', _tool: 'destroy', ...refund },
  ];

  it('chains the history and the refund', () => {
    const sim = simulate(calls(), { tools });
    expect(sim.criticalPath).toEqual(['history', 'refund']);
    expect(sim.criticalPathWeight).toBe(500);
    expect(sim.maxParallelism).toBe(1);
    expect(ids(compileOk(calls(), { tools }), compileOk(calls(), { tools }).criticalPath)).toEqual([
      'history',
      'refund',
    ]);
  });

  it('runs them side by side when the refund is _independent', () => {
    const sim = simulate(calls({ _independent: true }), { tools });
    expect(sim.criticalPath).toEqual(['refund']);
    expect(sim.criticalPathWeight).toBe(300);
    expect(sim.maxParallelism).toBe(2);
  });

  it('the dry run sees compile errors of _after', () => {
    const sim = compile([{ _tool: 'read', _after: ['nobody'] }], { tools });
    expect(sim.diagnostics.map((d) => d.code)).toEqual(['E_AFTER']);
  });
});
