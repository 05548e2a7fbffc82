/** Every problem with the CLI's own inputs: one `plan: error:` line, exit 2, no stack trace. */
import { afterAll, describe, expect, it } from 'vitest';
import { expectUsageError, MANIFEST, PLANS, runPlan, tempDir } from './helpers.js';
import { planInProcess } from './in-process.js';

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
/** `plan <args>` in this process, from the temp dir. */
const run = (args: string[], stdin = '') => planInProcess(args, stdin, { cwd: dir });

describe('problems with the CLI inputs', () => {
  it('a missing plan file', async () => {
    expectUsageError(await run(['validate', 'missing.json']), /plan file 'missing\.json' does not exist/);
    expectUsageError(await run(['graph', 'missing.json']), /plan file 'missing\.json' does not exist/);
  });

  it('a plan path that is a directory', async () => {
    expectUsageError(await run(['validate', '.']), /plan file '\.' is a directory/);
  });

  describe('tools files', () => {
    it('missing', async () => {
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'missing.json']),
        /tools file 'missing\.json' does not exist/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'missing.mjs']),
        /tools file 'missing\.mjs' does not exist/,
      );
    });

    it('invalid JSON, with its line and column', async () => {
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-invalid.json']),
        /tools file 'tools-invalid\.json' is not valid JSON at 4:3: .*trailing comma/,
      );
    });

    it('the wrong shape', async () => {
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-array.json']),
        /must hold a JSON object \{"tools": \[\.\.\.\]\}, not an array/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-not-array.json']),
        /"tools" is an object/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-no-key.json']),
        /it has no "tools" key/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-entry.json']),
        /tools\[1\] must be a tool definition object, not a string/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-execute.json']),
        /tools\[0\] \("a"\) has "execute"/,
      );
    });

    it('a bad definition: invalid schema, no name', async () => {
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-bad-schema.json']),
        /tools file 'tools-bad-schema\.json': tool 'a': "inputSchema" is not a valid JSON Schema/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-no-name.json']),
        /"name" must be a non-empty string/,
      );
    });

    it('an unsupported extension, or stdin', async () => {
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools.yaml']),
        /extension '\.yaml'.*\.json manifest/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', '-']),
        /--tools cannot read standard input/,
      );
    });

    it('a module exporting neither tools nor a default array', async () => {
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-nothing.mjs']),
        /exports neither "tools" nor a default array \(it exports "something"\)/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-empty.mjs']),
        /it exports nothing/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-not-array.mjs']),
        /export "tools" must be an array/,
      );
    });

    it('a module that throws or does not parse', async () => {
      expectUsageError(
        await run(['validate', 'plan.json', '--tools', 'tools-throws.mjs']),
        /failed to load \(Error: database is down\)/,
      );
      // In a real process: under vitest a module is parsed by Vite, whose message is not Node's.
      expectUsageError(
        runPlan(['graph', 'plan.json', '--tools', 'tools-syntax.mjs'], { cwd: dir }),
        /failed to load \(SyntaxError: /,
      );
    });
  });

  describe('input and state files', () => {
    it('must be JSON objects', async () => {
      expectUsageError(
        await run(['validate', 'plan.json', '--input', 'input-array.json']),
        /input file 'input-array\.json' must hold a JSON object, not an array/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--state', 'state-string.json']),
        /state file 'state-string\.json' must hold a JSON object, not a string/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--input', '-'], '[]'),
        /input file '<stdin>' must hold a JSON object/,
      );
    });

    it('must be valid JSON and exist', async () => {
      expectUsageError(
        await run(['validate', 'plan.json', '--input', 'input-invalid.json']),
        /input file 'input-invalid\.json' is not valid JSON at 1:10/,
      );
      expectUsageError(
        await run(['validate', 'plan.json', '--state', 'missing.json']),
        /state file 'missing\.json' does not exist/,
      );
    });

    it('only one of them can come from stdin', async () => {
      expectUsageError(
        await run(['validate', '-', '--input', '-'], '{}'),
        /only one of the plan, --input and --state/,
      );
    });
  });

  describe('usage', () => {
    it('an unknown flag', async () => {
      expectUsageError(
        await run(['validate', 'plan.json', '--jsn']),
        /unknown option '--jsn' \(Did you mean --json\?\)/,
      );
      expectUsageError(await run(['graph', 'plan.json', '--nope']), /unknown option '--nope'/);
    });

    it('a bad --format', async () => {
      expectUsageError(
        await run(['graph', 'plan.json', '--format', 'svg']),
        /'svg' is invalid\. Allowed choices are mermaid, dot, json/,
      );
      expectUsageError(
        await run(['graph', 'plan.json', '--format', 'dot', '--json']),
        /--json asks for JSON but --format asks for dot/,
      );
    });

    it('a missing argument or option value', async () => {
      expectUsageError(await run(['validate']), /missing required argument 'file'/);
      expectUsageError(
        await run(['validate', 'plan.json', '--tools']),
        /option '--tools <file>' argument missing/,
      );
    });

    it('an unknown command, or too many arguments', async () => {
      expectUsageError(
        await run(['validat', 'plan.json']),
        /unknown command 'validat' \(Did you mean validate\?\)/,
      );
      expectUsageError(await run(['validate', 'plan.json', 'extra.json']), /too many arguments/);
    });

    it('no command at all shows the help on stderr, with exit 2', async () => {
      const r = await run([]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/Usage: plan/);
    });
  });
});
