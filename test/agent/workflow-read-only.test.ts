/** Plan mode's read-only classification of workflows: read-only only if every call it can make is. */
import { describe, expect, it } from 'vitest';
import { ToolClassifier } from '../../src/agent/index.js';
import { type Tool, ToolRegistry } from '../../src/index.js';

const read: Tool = { name: 'read', annotations: { readOnlyHint: true }, execute: () => 'text' };
const send: Tool = { name: 'send', annotations: { readOnlyHint: false }, execute: () => 'sent' };
const readOnlyFlow: Tool = {
  name: 'digest',
  plan: [{ _tool: 'read', _outputPath: '†state.t' }],
  output: '†state.t',
};
const mutatingFlow: Tool = {
  name: 'notify',
  // Its own hint claims read-only; the call inside does not.
  annotations: { readOnlyHint: true },
  plan: [
    { _tool: 'read', _outputPath: '†state.t' },
    { _tool: 'send', body: '†state.t', _outputPath: '†state.s' },
  ],
  output: '†state.s',
};
const outer: Tool = {
  name: 'outer',
  plan: [{ _tool: 'notify', _outputPath: '†state.n' }],
  output: '†state.n',
};

describe('a workflow in plan mode', () => {
  it('is read-only when every call of its plan is', () => {
    const classifier = new ToolClassifier({ tools: [read, send, readOnlyFlow, mutatingFlow, outer] });
    expect(classifier.isReadOnly('digest')).toBe(true);
    expect(classifier.isReadOnly('notify')).toBe(false);
    // Through a workflow it calls, too.
    expect(classifier.isReadOnly('outer')).toBe(false);
  });

  it('is judged by its calls, not by an allowlist naming the workflow', () => {
    const classifier = new ToolClassifier({
      tools: [read, send, readOnlyFlow, mutatingFlow, outer],
      readOnly: ['notify', 'outer'],
    });
    expect(classifier.isReadOnly('notify')).toBe(false);
    // The allowlist naming the tool inside does count.
    const allowSend = new ToolClassifier({ tools: [read, send, mutatingFlow], readOnly: ['send'] });
    expect(allowSend.isReadOnly('notify')).toBe(true);
  });

  it('judges the bound definitions of a registry alike', () => {
    const registry = new ToolRegistry([read, send, readOnlyFlow, mutatingFlow]);
    const classifier = new ToolClassifier({ tools: registry });
    expect(classifier.isReadOnly('digest', registry.get('digest')!.tool)).toBe(true);
    expect(classifier.isReadOnly('notify', registry.get('notify')!.tool)).toBe(false);
  });

  it('a workflow it does not know is not read-only on its own word', () => {
    const classifier = new ToolClassifier({ tools: [read] });
    expect(classifier.isReadOnly('notify', mutatingFlow)).toBe(false);
  });

  it('makes its calls follow program order when a tool inside has effects', () => {
    const registry = new ToolRegistry([read, send, readOnlyFlow, mutatingFlow]);
    expect(registry.get('digest')!.programOrder).toBe(false);
    expect(registry.get('notify')!.programOrder).toBe(true);
  });
});

describe('a workflow behind the plan-mode guard', () => {
  it('runs with the guarded tools, each call inside authorized on its own', async () => {
    const { guardTools, PermissionPolicy, PlanMode, PlanModePolicy } =
      await import('../../src/agent/index.js');
    const { run } = await import('../../src/index.js');
    const latch = new PlanMode();
    const tools = [read, send, readOnlyFlow, mutatingFlow];
    const policy = new PlanModePolicy(new PermissionPolicy({ allow: ['*'], tools }), latch);
    const guarded = guardTools(tools, policy);
    // The guard's copies of bound workflows are still workflows: a registry takes them.
    const registry = new ToolRegistry(guarded.tools());
    latch.enter();
    const fine = await run([{ _tool: 'digest', _outputPath: '†state.d' }], { tools: registry });
    expect(fine.status).toBe('succeeded');
    expect(fine.state).toEqual({ d: 'text' });
    // While planning, the mutating call inside is refused, so the workflow call fails.
    const refused = await run([{ _tool: 'notify', _outputPath: '†state.n' }], { tools: registry });
    expect(refused.status).toBe('failed');
    expect(refused.calls[0]!.error!.message).toContain("workflow 'notify'");
    expect(refused.calls[0]!.error!.message).toContain('"send"');
  });
});
