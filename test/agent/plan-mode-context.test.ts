import { describe, expect, it } from 'vitest';
import {
  guardTools,
  type PermissionChecker,
  PermissionPolicy,
  PlanMode,
  PlanModeContext,
  PlanModePolicy,
  strictestOf,
} from '../../src/agent/index.js';

function parentContext() {
  const latch = new PlanMode();
  const policy = new PlanModePolicy(
    new PermissionPolicy({ allow: ['write_file'], readOnly: ['read_*'] }),
    latch,
  );
  return new PlanModeContext({ latch, policy });
}

describe('PlanModeContext: children share the parent latch and policy', () => {
  it('a child gets the very same objects, not copies', () => {
    const parent = parentContext();
    const child = parent.child();
    expect(child.latch).toBe(parent.latch);
    expect(child.policy).toBe(parent.policy);
    expect(child.child().latch).toBe(parent.latch);
  });

  it("a child's check is denied while the parent plans, and a flip by the parent applies to its next check", () => {
    const parent = parentContext();
    const child = parent.child();
    const grandchild = child.child();
    expect(child.policy.check('write_file').behavior).toBe('allow');
    parent.latch.enter();
    expect(child.policy.check('write_file').behavior).toBe('deny');
    expect(grandchild.policy.check('write_file').behavior).toBe('deny');
    expect(child.policy.check('read_file').behavior).toBe('allow');
    parent.latch.exit('the plan');
    expect(child.policy.check('write_file').behavior).toBe('allow');
    expect(grandchild.policy.check('write_file').behavior).toBe('allow');
  });

  it("a child's own tools guarded with its context are hidden while the parent plans", () => {
    const parent = parentContext();
    const child = parent.child();
    const guarded = guardTools(
      [{ name: 'write_file', execute: () => 'written' }, { name: 'read_file' }],
      child.policy,
    );
    expect(guarded.definitions().map((d) => d.name)).toEqual(['write_file', 'read_file']);
    parent.latch.enter();
    expect(guarded.definitions().map((d) => d.name)).toEqual(['read_file']);
  });

  it('a child can be made stricter with its own policy, never looser', () => {
    const parent = parentContext();
    const bypass = new PermissionPolicy({ mode: 'bypassPermissions' });
    const loose = parent.child({ policy: bypass });
    parent.latch.enter();
    expect(loose.policy.check('write_file').behavior).toBe('deny');
    parent.latch.exit('p');
    const strict = parent.child({ policy: new PermissionPolicy({ deny: ['write_*'] }) });
    expect(strict.policy.check('write_file')).toMatchObject({ behavior: 'deny', rule: 'write_*' });
    expect(parent.policy.check('write_file').behavior).toBe('allow');
    expect(strict.latch).toBe(parent.latch);
  });

  it('strictestOf: deny over ask over allow', () => {
    const answer = (behavior: 'allow' | 'ask' | 'deny'): PermissionChecker => ({
      check: () => ({ behavior, reason: behavior }),
    });
    expect(strictestOf(answer('allow'), answer('ask')).check('x').behavior).toBe('ask');
    expect(strictestOf(answer('ask'), answer('allow')).check('x').behavior).toBe('ask');
    expect(strictestOf(answer('allow'), answer('deny'), answer('ask')).check('x').behavior).toBe('deny');
    expect(strictestOf(answer('allow')).check('x').behavior).toBe('allow');
    expect(() => strictestOf()).toThrow(/at least one policy/);
  });

  it('bad arguments are TypeErrors naming the value', () => {
    const latch = new PlanMode();
    const policy = new PermissionPolicy();
    expect(() => new PlanModeContext({ latch: null as never, policy })).toThrow(
      /latch must be a PlanMode, not null/,
    );
    expect(() => new PlanModeContext({ latch, policy: (() => {}) as never })).toThrow(
      /policy must have a check\(\) method, not a function/,
    );
    expect(() => new PlanModeContext({ latch, policy: new PlanModePolicy(policy, new PlanMode()) })).toThrow(
      /reads another latch/,
    );
    expect(() => new PlanModeContext({ latch, policy }).child({ policy: 1 as never })).toThrow(
      /not number 1/,
    );
  });
});
