/** Runs the real, built `plan` command (bin/plan.js over dist/) in a child process. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/plan.js');
const BUILT = join(ROOT, 'dist/src/cli/main.js');

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** Working directory. */
  readonly cwd: string;
  /** Text piped to stdin. */
  readonly stdin?: string;
  /** Variables added to (or, when undefined, removed from) the environment. */
  readonly env?: Record<string, string | undefined>;
}

export function runPlan(args: readonly string[], options: RunOptions): RunResult {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run \`npm run build\` first (npm test does)`);
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    ...options.env,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    input: options.stdin ?? '',
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A temporary directory with the given files (objects are written as JSON). */
export function tempDir(files: Record<string, unknown>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'planmode-cli-'));
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The checks for every problem with the CLI's own inputs: one line, exit 2, no stack. */
export function expectUsageError(result: RunResult, pattern: RegExp): void {
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  const problems: string[] = [];
  if (result.code !== 2) problems.push(`exit code ${result.code}, expected 2`);
  if (result.stdout !== '') problems.push('stdout is not empty');
  if (lines.length !== 1) problems.push(`${lines.length} lines on stderr, expected 1`);
  if (!/^plan: error: /.test(lines[0] ?? '')) problems.push('stderr does not start with "plan: error: "');
  if (/\n\s+at /.test(result.stderr)) problems.push('stderr has a stack trace');
  if (!pattern.test(result.stderr)) problems.push(`stderr does not match ${pattern}`);
  if (problems.length > 0)
    throw new Error(`${problems.join('; ')}\nstderr: ${result.stderr}\nstdout: ${result.stdout}`);
}

// eslint-disable-next-line no-control-regex -- looking for ANSI escapes is the point
export const ANSI_ESCAPE = /\u001b\[/;

/** Small plans and tools shared by the CLI tests. */
export const PLANS = {
  /** get -> check (branch) -> notify: three calls, two data edges. */
  valid: [
    { _id: 'fetch', _tool: 'get_user', id: '†input.id', _outputPath: '†state.user' },
    { _id: 'check', _tool: 'check_user', name: '†state.user.name', _outputPath: '†state.ok || †state.err' },
    { _id: 'notify', _tool: 'notify', message: '†state.ok || †state.err' },
  ],
  /** Two calls write †state.x: valid, with W_MULTIPLE_WRITERS. */
  warning: [
    { _tool: 'get_user', id: 1, _outputPath: '†state.x' },
    { _tool: 'get_user', id: 2, _outputPath: '†state.x' },
  ],
  /** A read nothing writes, and a mistyped meta key. */
  invalid: [
    { _tool: 'get_user', id: 1, _outputPath: '†state.user' },
    { _tool: 'notify', message: '†state.nothing', _outputpath: '†state.sent' },
  ],
};

export const MANIFEST = {
  tools: [
    {
      name: 'get_user',
      inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      outputSchema: { type: 'object', properties: { name: { type: 'string' } } },
    },
    { name: 'check_user', inputSchema: { type: 'object', properties: { name: { type: 'string' } } } },
    { name: 'notify', annotations: { readOnlyHint: false } },
  ],
};
