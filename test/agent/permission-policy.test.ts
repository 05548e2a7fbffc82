import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  PERMISSION_MODES,
  type PermissionBehavior,
  type PermissionMode,
  PermissionPolicy,
  planTools,
  PlanMode,
} from '../../src/agent/index.js';

/** The policy the README's matrix is written for. */
const MATRIX_RULES = {
  deny: ['rm_*'],
  ask: ['deploy', 'read_secrets'],
  allow: ['write_file'],
  readOnly: ['read_*'],
  edits: ['edit_file'],
  tools: [
    // Defined in code: its hint is believed by default.
    { name: 'grep_search', annotations: { readOnlyHint: true } },
    // What an adapter makes of an MCP server's tool: the same hint is a claim.
    { name: 'mcp_fetch', annotations: { readOnlyHint: true }, annotationsTrusted: false },
  ],
} as const;

interface MatrixRow {
  tool: string;
  cells: Record<PermissionMode, PermissionBehavior>;
}

/** The precedence matrix exactly as the README shows it. */
function readmeMatrix(): MatrixRow[] {
  // The matrix lives in docs/agents.md (the README links there).
  const readme = readFileSync(new URL('../../docs/agents.md', import.meta.url), 'utf8');
  const start = readme.indexOf('<!-- permission-matrix');
  if (start < 0) throw new Error('docs/agents.md has no permission matrix');
  const lines = readme.slice(start).split('\n').slice(1);
  const table: string[] = [];
  for (const line of lines) {
    if (!line.startsWith('|')) break;
    table.push(line);
  }
  const cellsOf = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
  const header = cellsOf(table[0]!);
  const modes = header.slice(1) as PermissionMode[];
  return table.slice(2).map((line) => {
    const [first, ...rest] = cellsOf(line);
    const tool = /`([^`]+)`/.exec(first!)![1]!;
    const cells = Object.fromEntries(modes.map((mode, i) => [mode, rest[i] as PermissionBehavior]));
    return { tool, cells: cells as Record<PermissionMode, PermissionBehavior> };
  });
}

describe('PermissionPolicy: the precedence table of the README', () => {
  const matrix = readmeMatrix();

  it('the README table covers every mode and every step of the precedence', () => {
    expect(Object.keys(matrix[0]!.cells).sort()).toEqual([...PERMISSION_MODES].sort());
    expect(matrix.length).toBeGreaterThanOrEqual(10);
  });

  for (const { tool, cells } of matrix) {
    for (const mode of PERMISSION_MODES) {
      it(`${mode}: ${tool} -> ${cells[mode]}`, () => {
        const policy = new PermissionPolicy({ ...MATRIX_RULES, mode });
        const decision = policy.check(tool);
        expect(decision.behavior).toBe(cells[mode]);
        expect(decision.reason).toContain(`'${tool}'`);
      });
    }
  }
});

describe('PermissionPolicy rules and modes', () => {
  it('deny wins over an allow rule for the same tool, and over bypassPermissions', () => {
    const policy = new PermissionPolicy({ allow: ['*'], deny: ['drop_table'], mode: 'bypassPermissions' });
    expect(policy.check('drop_table')).toEqual({
      behavior: 'deny',
      reason: "deny rule 'drop_table' matches 'drop_table'",
      rule: 'drop_table',
      cause: 'deny-rule',
    });
    expect(policy.check('other').behavior).toBe('allow');
  });

  it('ask rules come before allow rules', () => {
    const policy = new PermissionPolicy({ allow: ['mcp__github__*'], ask: ['mcp__github__delete_*'] });
    expect(policy.check('mcp__github__delete_repo')).toMatchObject({
      behavior: 'ask',
      rule: 'mcp__github__delete_*',
    });
    expect(policy.check('mcp__github__list_issues')).toMatchObject({
      behavior: 'allow',
      rule: 'mcp__github__*',
    });
  });

  it('plan mode denies a mutating tool even when an allow rule names it', () => {
    const policy = new PermissionPolicy({ allow: ['write_file'], mode: 'plan' });
    expect(policy.check('write_file')).toEqual({
      behavior: 'deny',
      reason: "Plan mode denies mutating tool 'write_file'",
      cause: 'plan-mode',
    });
  });

  it('the mode can be switched; the next check uses it', () => {
    const policy = new PermissionPolicy({ edits: ['edit_file'] });
    expect(policy.check('edit_file').behavior).toBe('ask');
    policy.mode = 'acceptEdits';
    expect(policy.check('edit_file').behavior).toBe('allow');
    policy.mode = 'dontAsk';
    expect(policy.check('edit_file').behavior).toBe('deny');
  });

  it('the plan tools are allowed in every mode, even with ask rules matching them', () => {
    for (const mode of PERMISSION_MODES) {
      const policy = new PermissionPolicy({ ask: ['*'], mode });
      for (const name of ['enter_plan_mode', 'exit_plan_mode', 'plan_write', 'todo_write']) {
        expect(policy.check(name).behavior, `${mode} ${name}`).toBe('allow');
      }
    }
  });

  describe('read-only tools (SPEC 8)', () => {
    const tools = [
      { name: 'list_files', annotations: { readOnlyHint: true } },
      { name: 'mcp__evil__wipe', annotations: { readOnlyHint: true } },
      { name: 'write_file', annotations: { readOnlyHint: false } },
    ];
    /** What an adapter makes of a third party's tool: its hints are claims. */
    const fromServer = {
      name: 'mcp__fs__read',
      annotations: { readOnlyHint: true },
      annotationsTrusted: false,
    };

    it("a readOnlyHint of a tool defined in code is believed by default; an adapter's is not", () => {
      const policy = new PermissionPolicy({ tools: [...tools, fromServer], mode: 'plan' });
      expect(policy.check('list_files').behavior).toBe('allow');
      expect(policy.classifier.isReadOnly('list_files')).toBe(true);
      expect(policy.check('write_file').behavior).toBe('deny');
      expect(policy.check('mcp__fs__read')).toMatchObject({ behavior: 'deny', cause: 'plan-mode' });
    });

    it('trustAnnotations: false believes no hint: only the allowlist counts', () => {
      const policy = new PermissionPolicy({
        tools,
        trustAnnotations: false,
        readOnly: ['write_*'],
        mode: 'plan',
      });
      expect(policy.check('list_files').behavior).toBe('deny');
      expect(policy.classifier.isReadOnly('list_files')).toBe(false);
      expect(policy.check('write_file').behavior).toBe('allow');
    });

    it('trustAnnotations: true believes every definition but those marked untrusted', () => {
      const policy = new PermissionPolicy({
        tools: [...tools, fromServer],
        trustAnnotations: true,
        mode: 'plan',
      });
      expect(policy.check('list_files').behavior).toBe('allow');
      expect(policy.check('mcp__evil__wipe').behavior).toBe('allow');
      expect(policy.check('write_file').behavior).toBe('deny');
      expect(policy.check('mcp__fs__read').behavior).toBe('deny');
    });

    it('trustAnnotations as a function decides per tool', () => {
      const policy = new PermissionPolicy({
        tools,
        trustAnnotations: (tool) => !tool.name.startsWith('mcp__'),
        mode: 'plan',
      });
      expect(policy.check('list_files').behavior).toBe('allow');
      expect(policy.check('mcp__evil__wipe').behavior).toBe('deny');
    });

    it('an unknown tool is mutating; the allowlist makes any name read-only', () => {
      const policy = new PermissionPolicy({ readOnly: ['grep'], mode: 'plan' });
      expect(policy.check('never_heard_of_it').behavior).toBe('deny');
      expect(policy.check('grep').behavior).toBe('allow');
    });

    it("a tool of the user's named like a plan tool is refused: it would be exempt from plan mode", () => {
      expect(() => new PermissionPolicy({ tools: [{ name: 'plan_write' }] })).toThrow(
        /the tool 'plan_write' is not the one planTools\(\) makes/,
      );
      const dir = mkdtempSync(join(tmpdir(), 'planmode-policy-'));
      const genuine = planTools({ latch: new PlanMode(), plansDir: join(dir, 'plans'), approve: () => true });
      onTestFinished(() => {
        genuine.close();
        rmSync(dir, { recursive: true, force: true });
      });
      expect(() => new PermissionPolicy({ tools: genuine })).not.toThrow();
    });
  });

  describe('bad options are TypeErrors naming the value', () => {
    const cases: [string, () => unknown, RegExp][] = [
      ['options', () => new PermissionPolicy(7 as never), /options must be an object, not number 7/],
      ['mode', () => new PermissionPolicy({ mode: 'yolo' as never }), /mode must be one of .*, not "yolo"/],
      [
        'allow',
        () => new PermissionPolicy({ allow: 'read_*' as never }),
        /allow must be an array .*, not "read_\*"/,
      ],
      [
        'deny item',
        () => new PermissionPolicy({ deny: ['ok', 3] as never }),
        /deny\[1\] must be a non-empty string, not number 3/,
      ],
      ['ask item', () => new PermissionPolicy({ ask: [''] }), /ask\[0\] must be a non-empty string, not ""/],
      [
        'edits',
        () => new PermissionPolicy({ edits: {} as never }),
        /edits must be an array .*, not an object/,
      ],
      [
        'trustAnnotations',
        () => new PermissionPolicy({ trustAnnotations: 'yes' as never }),
        /trustAnnotations must be a boolean or a function, not "yes"/,
      ],
      [
        'tools',
        () => new PermissionPolicy({ tools: 5 as never }),
        /tools must be an array of tool definitions, not number 5/,
      ],
      [
        'duplicate tools',
        () => new PermissionPolicy({ tools: [{ name: 'a' }, { name: 'a' }] }),
        /two tools are named 'a'/,
      ],
      [
        'mode set later',
        () => {
          new PermissionPolicy().mode = 'auto' as never;
        },
        /not "auto"/,
      ],
      [
        'check name',
        () => new PermissionPolicy().check(undefined as never),
        /tool name must be a non-empty string, not undefined/,
      ],
    ];
    for (const [what, act, message] of cases) {
      it(what, () => {
        expect(act).toThrow(TypeError);
        expect(act).toThrow(message);
      });
    }
  });
});
