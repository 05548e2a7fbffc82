/** Every problem with the CLI's own inputs: one `plan: error:` line, exit 2, no stack trace. */
import { afterAll, describe, expect, it } from 'vitest';
import { expectUsageError, MANIFEST, PLANS, runPlan, tempDir } from './helpers.js';

const { dir, cleanup } = tempDir({
  'plan.json': PLANS.valid,
  'tools.json': MANIFEST,
  'tools-invalid.json': '{\n  "tools": [\n    {"name": "a"},\n  ]\n}\n',
  'tools-array.json': MANIFEST.tools,
  'tools-not-array.json': { tools: { name: 'a' } },
  'tools-entry.json': { tools: [{ name: 'a' }, 'b'] },
  'tools-no-key.json': { tool: [] },
  'tools-bad-schema.json': { tools: [{ name: 'a', inputSchema: { type: 'nope' } }] },
  'tools-no-name.json': { tools: [{ description: 'no name' }] },
  'tools-execute.json': { tools: [{ name: 'a', execute: 'x' }] },
  'tools.yaml': 'tools: []\n',
  'tools-nothing.mjs': 'export const something = 1;\n',
  'tools-empty.mjs': '// nothing\n',
  'tools-throws.mjs': 'throw new Error("database is down");\nexport const tools = [];\n',
  'tools-syntax.mjs': 'export const tools = [;\n',
  'tools-not-array.mjs': 'export const tools = { a: 1 };\n',
  'input-array.json': [1, 2],
  'input-invalid.json': '{"id": 1,}',
  'state-string.json': '"hello"',
});
afterAll(cleanup);
const run = (args: string[], stdin?: string) =>
  runPlan(args, { cwd: dir, ...(stdin !== undefined && { stdin }) });

describe('problems with the CLI inputs', () => {
  it('a missing plan file', () => {
    expectUsageError(run(['validate', 'missing.json']), /plan file 'missing\.json' does not exist/);
    expectUsageError(run(['graph', 'missing.json']), /plan file 'missing\.json' does not exist/);
  });

  it('a plan path that is a directory', () => {
    expectUsageError(run(['validate', '.']), /plan file '\.' is a directory/);
  });

  describe('tools files', () => {
    it('missing', () => {
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'missing.json']),
        /tools file 'missing\.json' does not exist/,
      );
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'missing.mjs']),
        /tools file 'missing\.mjs' does not exist/,
      );
    });

    it('invalid JSON, with its line and column', () => {
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools-invalid.json']),
        /tools file 'tools-invalid\.json' is not valid JSON at 4:3: .*trailing comma/,
      );
    });

    it('the wrong shape', () => {
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools-array.json']),
        /must hold a JSON object \{"tools": \[\.\.\.\]\}, not an array/,
      );
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools-not-array.json']),
        /"tools" is an object/,
      );
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools-no-key.json']),
        /it has no "tools" key/,
      );
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools-entry.json']),
        /tools\[1\] must be a tool definition object, not a string/,
      );
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools-execute.json']),
        /tools\[0\] \("a"\) has "execute"/,
      );
    });

    it('a bad definition: invalid schema, no name', () => {
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools-bad-schema.json']),
        /tools file 'tools-bad-schema\.json': tool 'a': "inputSchema" is not a valid JSON Schema/,
      );
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools-no-name.json']),
        /"name" must be a non-empty string/,
      );
    });

    it('an unsupported extension, or stdin', () => {
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools.yaml']),
        /extension '\.yaml'.*\.json manifest/,
      );
      expectUsageError(run(['validate', 'plan.json', '--tools', '-']), /--tools cannot read standard input/);
    });

    it('a module exporting neither tools nor a default array', () => {
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools-nothing.mjs']),
        /exports neither "tools" nor a default array \(it exports "something"\)/,
      );
      expectUsageError(run(['validate', 'plan.json', '--tools', 'tools-empty.mjs']), /it exports nothing/);
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools-not-array.mjs']),
        /export "tools" must be an array/,
      );
    });

    it('a module that throws or does not parse', () => {
      expectUsageError(
        run(['validate', 'plan.json', '--tools', 'tools-throws.mjs']),
        /failed to load \(Error: database is down\)/,
      );
      expectUsageError(
        run(['graph', 'plan.json', '--tools', 'tools-syntax.mjs']),
        /failed to load \(SyntaxError: /,
      );
    });
  });

  describe('input and state files', () => {
    it('must be JSON objects', () => {
      expectUsageError(
        run(['validate', 'plan.json', '--input', 'input-array.json']),
        /input file 'input-array\.json' must hold a JSON object, not an array/,
      );
      expectUsageError(
        run(['validate', 'plan.json', '--state', 'state-string.json']),
        /state file 'state-string\.json' must hold a JSON object, not a string/,
      );
      expectUsageError(
        run(['validate', 'plan.json', '--input', '-'], '[]'),
        /input file '<stdin>' must hold a JSON object/,
      );
    });

    it('must be valid JSON and exist', () => {
      expectUsageError(
        run(['validate', 'plan.json', '--input', 'input-invalid.json']),
        /input file 'input-invalid\.json' is not valid JSON at 1:10/,
      );
      expectUsageError(
        run(['validate', 'plan.json', '--state', 'missing.json']),
        /state file 'missing\.json' does not exist/,
      );
    });

    it('only one of them can come from stdin', () => {
      expectUsageError(
        run(['validate', '-', '--input', '-'], '{}'),
        /only one of the plan, --input and --state/,
      );
    });
  });

  describe('usage', () => {
    it('an unknown flag', () => {
      expectUsageError(
        run(['validate', 'plan.json', '--jsn']),
        /unknown option '--jsn' \(Did you mean --json\?\)/,
      );
      expectUsageError(run(['graph', 'plan.json', '--nope']), /unknown option '--nope'/);
    });

    it('a bad --format', () => {
      expectUsageError(
        run(['graph', 'plan.json', '--format', 'svg']),
        /'svg' is invalid\. Allowed choices are mermaid, dot, json/,
      );
      expectUsageError(
        run(['graph', 'plan.json', '--format', 'dot', '--json']),
        /--json asks for JSON but --format asks for dot/,
      );
    });

    it('a missing argument or option value', () => {
      expectUsageError(run(['validate']), /missing required argument 'file'/);
      expectUsageError(run(['validate', 'plan.json', '--tools']), /option '--tools <file>' argument missing/);
    });

    it('an unknown command, or too many arguments', () => {
      expectUsageError(
        run(['validat', 'plan.json']),
        /unknown command 'validat' \(Did you mean validate\?\)/,
      );
      expectUsageError(run(['validate', 'plan.json', 'extra.json']), /too many arguments/);
    });

    it('no command at all shows the help on stderr, with exit 2', () => {
      const r = run([]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/Usage: plan/);
    });
  });
});
