import { describe, expect, it } from 'vitest';
import {
  type PermissionChecker,
  PERMISSION_MODES,
  PermissionPolicy,
  PlanMode,
  PlanModePolicy,
} from '../../src/agent/index.js';

const PLAN_TOOLS = ['enter_plan_mode', 'exit_plan_mode', 'plan_write', 'todo_write'];

function planning(): PlanMode {
  const latch = new PlanMode();
  latch.enter();
  return latch;
}

describe('PlanModePolicy over every base mode', () => {
  for (const mode of PERMISSION_MODES) {
    describe(`base mode ${mode}`, () => {
      const base = () =>
        new PermissionPolicy({
          allow: ['write_file', 'read_file'],
          readOnly: ['read_*'],
          edits: ['edit_file'],
          mode,
        });

      it('while planning: mutating tools are denied with the reason, marked as plan mode', () => {
        const policy = new PlanModePolicy(base(), planning());
        for (const name of ['write_file', 'edit_file', 'run_shell', 'unknown_tool']) {
          expect(policy.check(name)).toEqual({
            behavior: 'deny',
            reason: `Plan mode denies mutating tool '${name}'`,
            cause: 'plan-mode',
          });
        }
      });

      it('while planning: read-only tools get what the base says', () => {
        const b = base();
        const policy = new PlanModePolicy(b, planning());
        expect(policy.check('read_file')).toEqual(b.check('read_file'));
        expect(policy.check('read_file').behavior).toBe('allow');
      });

      it('the plan tools are allowed while planning, executing and off', () => {
        const latch = new PlanMode();
        const policy = new PlanModePolicy(base(), latch);
        for (const step of ['off', 'planning', 'executing'] as const) {
          if (step === 'planning') latch.enter();
          if (step === 'executing') latch.exit('p');
          for (const name of PLAN_TOOLS) expect(policy.check(name).behavior, `${step} ${name}`).toBe('allow');
        }
      });

      it('when not planning the base decides every tool', () => {
        const b = base();
        const latch = new PlanMode();
        const policy = new PlanModePolicy(b, latch);
        for (const name of ['write_file', 'edit_file', 'run_shell', 'read_file']) {
          expect(policy.check(name)).toEqual(b.check(name));
          latch.enter();
          latch.exit('p');
          expect(policy.check(name)).toEqual(b.check(name));
          latch.reset();
        }
      });
    });
  }

  it('a custom base that would ask about exit_plan_mode does not keep the model in plan mode', () => {
    const askEverything: PermissionChecker = { check: () => ({ behavior: 'ask', reason: 'ask' }) };
    const policy = new PlanModePolicy(askEverything, planning());
    expect(policy.check('exit_plan_mode').behavior).toBe('allow');
    expect(policy.check('write_file').behavior).toBe('deny');
  });
});

describe('PlanModePolicy: nothing is cached', () => {
  it('a flip of the latch between two checks applies to the second', () => {
    const latch = new PlanMode();
    const policy = new PlanModePolicy(new PermissionPolicy({ allow: ['write_file'] }), latch);
    expect(policy.check('write_file').behavior).toBe('allow');
    latch.enter();
    expect(policy.check('write_file').behavior).toBe('deny');
    latch.exit('the plan');
    expect(policy.check('write_file').behavior).toBe('allow');
    latch.enter();
    expect(policy.check('write_file').behavior).toBe('deny');
    latch.reset();
    expect(policy.check('write_file').behavior).toBe('allow');
  });

  it('a change of the base mode applies to the next check', () => {
    const base = new PermissionPolicy({ edits: ['edit_file'] });
    const policy = new PlanModePolicy(base, new PlanMode());
    expect(policy.check('edit_file').behavior).toBe('ask');
    base.mode = 'acceptEdits';
    expect(policy.check('edit_file').behavior).toBe('allow');
  });
});

describe('PlanModePolicy: deny wins, and the exit stays reachable', () => {
  it('a deny rule of the base wins over plan mode for read-only tools too', () => {
    const policy = new PlanModePolicy(
      new PermissionPolicy({ deny: ['read_secrets'], readOnly: ['read_*'] }),
      planning(),
    );
    expect(policy.check('read_secrets')).toMatchObject({ behavior: 'deny', rule: 'read_secrets' });
  });

  it('a deny rule naming a plan tool other than exit is honored', () => {
    const policy = new PlanModePolicy(new PermissionPolicy({ deny: ['todo_write'] }), planning());
    expect(policy.check('todo_write')).toMatchObject({ behavior: 'deny', rule: 'todo_write' });
    expect(policy.check('exit_plan_mode').behavior).toBe('allow');
  });

  for (const deny of [['*'], ['exit_plan_mode'], ['exit_*'], ['*_plan_mode']]) {
    it(`a base that denies exit_plan_mode (deny: ${JSON.stringify(deny)}) is a TypeError at construction`, () => {
      const make = () => new PlanModePolicy(new PermissionPolicy({ deny }), new PlanMode());
      expect(make).toThrow(TypeError);
      expect(make).toThrow(`deny rule '${deny[0]}' matches 'exit_plan_mode'`);
      expect(make).toThrow(/plan mode could never be left/);
    });
  }

  it('a custom base that denies exit_plan_mode is refused too', () => {
    const denyAll: PermissionChecker = { check: () => ({ behavior: 'deny', reason: 'locked down' }) };
    expect(() => new PlanModePolicy(denyAll, new PlanMode())).toThrow(
      /denies 'exit_plan_mode' \(locked down\)/,
    );
  });
});

describe('PlanModePolicy: one definition of "mutating"', () => {
  const tools = [
    { name: 'list_files', annotations: { readOnlyHint: true } },
    { name: 'write_file', annotations: { readOnlyHint: false } },
  ];

  it("uses the base PermissionPolicy's classifier, so base plan mode and the latch agree", () => {
    const base = new PermissionPolicy({ tools, trustAnnotations: true, readOnly: ['grep'] });
    const policy = new PlanModePolicy(base, planning());
    expect(policy.classifier).toBe(base.classifier);
    const staticPlan = new PermissionPolicy({
      tools,
      trustAnnotations: true,
      readOnly: ['grep'],
      mode: 'plan',
    });
    for (const name of ['list_files', 'write_file', 'grep', 'other']) {
      expect(policy.check(name).behavior === 'deny', name).toBe(staticPlan.check(name).behavior === 'deny');
    }
  });

  it('giving tools to both the base and the plan-mode policy is a TypeError (two lists would drift)', () => {
    const base = new PermissionPolicy({ readOnly: ['grep'] });
    expect(() => new PlanModePolicy(base, new PlanMode(), { readOnly: ['cat'] })).toThrow(
      /already says which tools are read-only/,
    );
  });

  it('over a base without a classification (or a custom base) its own options decide', () => {
    const custom: PermissionChecker = { check: () => ({ behavior: 'allow', reason: 'custom' }) };
    const policy = new PlanModePolicy(custom, planning(), { tools, trustAnnotations: true });
    expect(policy.check('list_files')).toEqual({ behavior: 'allow', reason: 'custom' });
    expect(policy.check('write_file').behavior).toBe('deny');
    const overBare = new PlanModePolicy(new PermissionPolicy(), planning(), { readOnly: ['grep'] });
    expect(overBare.check('grep').behavior).toBe('ask');
    expect(overBare.check('cat').behavior).toBe('deny');
  });

  it('bad arguments are TypeErrors naming the value', () => {
    const base = new PermissionPolicy();
    expect(() => new PlanModePolicy({} as never, new PlanMode())).toThrow(
      /must have a check\(\) method, not an object/,
    );
    expect(() => new PlanModePolicy(base, 'planning' as never)).toThrow(
      /latch must be a PlanMode, not "planning"/,
    );
    expect(() => new PlanModePolicy(base, new PlanMode(), { edits: ['x'] } as never)).toThrow(
      /edits belongs to the base/,
    );
    expect(() => new PlanModePolicy(base, new PlanMode(), { readOnly: 'x' as never })).toThrow(
      /readOnly must be an array of tool-name patterns, not "x"/,
    );
    expect(() => new PlanModePolicy(base, new PlanMode()).check('')).toThrow(/non-empty string, not ""/);
  });
});

describe("PlanModePolicy: adk-fluent's direct wiring", () => {
  const readFile = {
    name: 'read_file',
    annotations: { readOnlyHint: true },
    execute: () => 'text',
  };
  const editFile = { name: 'edit_file', execute: () => 'edited' };

  it('base allows read_file and grep_search; planning allows read_file (defined in code, readOnlyHint) and denies edit_file', () => {
    const latch = new PlanMode();
    const base = new PermissionPolicy({ allow: ['read_file', 'grep_search'] });
    const policy = new PlanModePolicy(base, latch);
    latch.enter();
    expect(policy.check('read_file', {}, readFile)).toEqual({
      behavior: 'allow',
      reason: "allow rule 'read_file' matches 'read_file'",
      rule: 'read_file',
    });
    expect(policy.check('edit_file', {}, editFile)).toEqual({
      behavior: 'deny',
      reason: "Plan mode denies mutating tool 'edit_file'",
      cause: 'plan-mode',
    });
    // Executing: the base decides again (edit_file is asked about: no rule allows it).
    latch.exit('1. Do X');
    expect(policy.check('edit_file', {}, editFile).behavior).toBe('ask');
  });

  it('the same tool from an adapter (annotationsTrusted: false) is denied while planning, unless allowlisted', () => {
    const latch = new PlanMode();
    latch.enter();
    const fromServer = { ...readFile, annotationsTrusted: false };
    const base = new PermissionPolicy({ allow: ['read_file'] });
    expect(new PlanModePolicy(base, latch).check('read_file', {}, fromServer).behavior).toBe('deny');
    const allowlisted = new PermissionPolicy({ allow: ['read_file'], readOnly: ['read_file'] });
    expect(new PlanModePolicy(allowlisted, latch).check('read_file', {}, fromServer).behavior).toBe('allow');
  });
});
