import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ANSI_ESCAPE, MANIFEST, PLANS, ROOT, tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

const { dir, cleanup } = tempDir({
  'plan.json': PLANS.valid,
  'warning.json': PLANS.warning,
  'invalid.json': PLANS.invalid,
  'trailing-comma.json': '[\n  {"_tool": "get_user", "id": 1},\n]\n',
  'missing-comma.json': '[\n  {"_tool": "get_user", "id": 1}\n  {"_tool": "get_user", "id": 2}\n]\n',
  'tools.json': MANIFEST,
  'tools.mjs': `export const tools = ${JSON.stringify(MANIFEST.tools)}.map((t) => ({ ...t, execute: async () => ({}) }));\n`,
  'default-tools.mjs': `export default ${JSON.stringify(MANIFEST.tools)};\n`,
  'unknown-tool.json': [{ _tool: 'get_usr', id: 1 }],
  'bad-args.json': [{ _tool: 'get_user', id: 'seven' }],
  'input.json': { id: 7 },
  'other-input.json': { name: 'x' },
  'state.json': { seed: 42 },
  'reads-state.json': [{ _tool: 'notify', message: '†state.seed' }],
  'typed-tools.json': {
    tools: [
      { name: 'search', outputSchema: { type: 'array' } },
      {
        name: 'summarize',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
    ],
  },
  'wrong-type.json': [
    { _tool: 'search', _outputPath: '†state.r' },
    { _tool: 'summarize', text: '†state.r' },
  ],
});
afterAll(cleanup);
/** `plan <args>` in this process, from the temp dir. */
const run = (args: string[], stdin = '') => planInProcess(args, stdin, { cwd: dir });

describe('plan validate', () => {
  it('follows types through references, unless --no-check-types', async () => {
    const checked = await run(['validate', 'wrong-type.json', '--tools', 'typed-tools.json']);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(
      /^wrong-type\.json:\d+:\d+: error E_REF_TYPE: argument 'text' .+ expects string, but †state\.r is array/,
    );
    const unchecked = await run([
      'validate',
      'wrong-type.json',
      '--tools',
      'typed-tools.json',
      '--no-check-types',
    ]);
    expect(unchecked.code).toBe(0);
    expect(unchecked.stderr).toBe('wrong-type.json: valid, 2 calls, 1 edge, 0 warnings\n');
  });

  it('exits 0 for a valid plan, with a summary on stderr and nothing on stdout', async () => {
    const r = await run(['validate', 'plan.json', '--tools', 'tools.json', '--input', 'input.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    // Two data edges, and notify (readOnlyHint: false, an effect) waits for fetch too.
    expect(r.stderr).toBe('plan.json: valid, 3 calls, 3 edges, 0 warnings\n');
  });

  it('exits 0 with warnings, printed as file:line:col: warning CODE: message', async () => {
    const r = await run(['validate', 'warning.json', '--tools', 'tools.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^warning\.json:\d+:\d+: warning W_MULTIPLE_WRITERS: .+\n {2}hint: .+\n/);
    expect(r.stderr).toMatch(/warning\.json: valid, 2 calls, \d+ edges?, 1 warning\n$/);
  });

  it('exits 1 and prints every error as file:line:col: error CODE: message, the hint indented below', async () => {
    const r = await run(['validate', 'invalid.json', '--tools', 'tools.json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    const located = lines.filter((l) => /^invalid\.json:\d+:\d+: error E_[A-Z_]+: /.test(l));
    expect(located.map((l) => /error (E_[A-Z_]+)/.exec(l)![1]).sort()).toEqual([
      'E_UNKNOWN_META',
      'E_UNRESOLVED',
    ]);
    for (const [i, line] of lines.entries()) {
      if (line.startsWith('  ')) expect(lines[i - 1]).toMatch(/^invalid\.json:\d+:\d+: /);
    }
    expect(lines.filter((l) => l.startsWith('  hint: ')).length).toBeGreaterThanOrEqual(1);
    expect(lines.at(-1)).toBe('invalid.json: invalid, 2 errors, 0 warnings');
  });

  it('points at the exact line and column of a JSON syntax error', async () => {
    const r = await run(['validate', 'missing-comma.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^missing-comma\.json:3:3: error E_JSON: .+\n {2}hint: /);
  });

  it('reads a trailing comma as space, with a warning at it', async () => {
    const r = await run(['validate', 'trailing-comma.json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^trailing-comma\.json:2:33: warning W_JSON_EXTENSION: a trailing comma/);
  });

  it('reads the plan from stdin with -', async () => {
    const r = await run(['validate', '-'], JSON.stringify(PLANS.invalid, null, 2));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^<stdin>:\d+:\d+: error E_/m);
    const ok = await run(
      ['validate', '-', '--tools', 'tools.json', '--input', 'input.json'],
      JSON.stringify(PLANS.valid),
    );
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe('<stdin>: valid, 3 calls, 3 edges, 0 warnings\n');
  });

  describe('--json', () => {
    it('prints one object, alone on stdout, for a valid plan', async () => {
      const r = await run(['validate', 'plan.json', '--json']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
      const out = JSON.parse(r.stdout);
      expect(Object.keys(out)).toEqual(['ok', 'mode', 'calls', 'edges', 'order', 'diagnostics', 'skipped']);
      expect(out).toEqual({
        ok: true,
        mode: 'eager',
        calls: 3,
        edges: 2,
        order: ['fetch', 'check', 'notify'],
        diagnostics: [],
        skipped: ['tools', 'arguments', 'input'],
      });
    });

    it('reports errors in the object with exit 1, and an empty order', async () => {
      const r = await run(['validate', 'invalid.json', '--json']);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout);
      expect(out.ok).toBe(false);
      expect(out.order).toEqual([]);
      expect(out.calls).toBe(2);
      expect(out.diagnostics.length).toBe(2);
      for (const d of out.diagnostics) {
        expect(d).toMatchObject({
          severity: 'error',
          code: expect.stringMatching(/^E_/),
          message: expect.any(String),
        });
        expect(typeof d.pointer).toBe('string');
        expect(d.line).toBeGreaterThanOrEqual(1);
        expect(d.column).toBeGreaterThanOrEqual(1);
      }
    });

    it('gives the lazy mode of a plan message', async () => {
      const { dir: lazyDir, cleanup: done } = tempDir({
        'lazy.json': { type: 'plan', mode: 'lazy', plan: PLANS.valid },
      });
      try {
        const out = JSON.parse(
          (await planInProcess(['validate', 'lazy.json', '--json'], '', { cwd: lazyDir })).stdout,
        );
        expect(out.mode).toBe('lazy');
      } finally {
        done();
      }
    });

    it('stays parseable for a plan that is not JSON', async () => {
      const r = await run(['validate', '-', '--json'], '{"not json');
      expect(r.code).toBe(1);
      const out = JSON.parse(r.stdout);
      expect(out).toMatchObject({ ok: false, calls: 0, edges: 0, order: [] });
      expect(out.diagnostics[0].code).toBe('E_JSON');
    });
  });

  describe('--tools', () => {
    // The files are pretty-printed: `[`, `{`, then `"_tool": ...` on line 3 and `"id": ...` on line 4.
    it('checks tool names against a JSON manifest', async () => {
      const r = await run(['validate', 'unknown-tool.json', '--tools', 'tools.json']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^unknown-tool\.json:3:14: error E_UNKNOWN_TOOL: .*\n {2}hint: did you mean "get_user"\?/,
      );
    });

    it('checks literal arguments against inputSchema', async () => {
      const r = await run(['validate', 'bad-args.json', '--tools', 'tools.json']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^bad-args\.json:4:11: error E_ARGS: /m);
    });

    it('loads an ES module exporting tools, or a default array', async () => {
      expect((await run(['validate', 'plan.json', '--tools', 'tools.mjs'])).code).toBe(0);
      expect((await run(['validate', 'plan.json', '--tools', 'default-tools.mjs'])).code).toBe(0);
      expect((await run(['validate', 'unknown-tool.json', '--tools', 'tools.mjs'])).code).toBe(1);
    });
  });

  it('checks input reads against --input', async () => {
    expect((await run(['validate', 'plan.json', '--input', 'input.json'])).code).toBe(0);
    const r = await run(['validate', 'plan.json', '--input', 'other-input.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^plan\.json:\d+:\d+: error E_UNRESOLVED: †input\.id/m);
  });

  it('binds state reads to --state', async () => {
    expect((await run(['validate', 'reads-state.json'])).code).toBe(1);
    expect((await run(['validate', 'reads-state.json', '--state', 'state.json'])).code).toBe(0);
  });

  it('accepts --input from stdin when the plan is a file', async () => {
    expect((await run(['validate', 'plan.json', '--input', '-'], '{"id": 1}')).code).toBe(0);
  });

  it('never colors output that is not a terminal, with or without NO_COLOR', async () => {
    for (const env of [{}, { NO_COLOR: '1' }, { FORCE_COLOR: '1' }]) {
      const r = await planInProcess(['validate', 'invalid.json'], '', { cwd: dir, env });
      expect(r.stderr).not.toMatch(ANSI_ESCAPE);
      expect(r.stderr).toMatch(/E_UNRESOLVED/);
    }
  });

  it('prints help and the version with exit 0', async () => {
    const help = await run(['validate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: plan validate \[options\] <file>/);
    expect(help.stdout).toMatch(/--tools <file>/);
    const version = await run(['--version']);
    expect(version.code).toBe(0);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(version.stdout.trim()).toBe(pkg.version);
    expect((await run(['--help'])).code).toBe(0);
  });
});
