/** Runs `plan` in this process through main(), with captured output: no child process. */
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { main } from '../../src/cli/main.js';

export interface InProcessResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface InProcessOptions {
  /**
   * The working directory relative paths are read from, for the call only. Test files run in
   * their own forked process one test at a time (vitest.config.ts), so changing it is safe.
   * @default process.cwd()
   */
  readonly cwd?: string;
  /**
   * The environment the command sees.
   * @default {}
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** `plan <args>` with stdin holding `stdin` (not a terminal). */
export async function planInProcess(
  args: readonly string[],
  stdin = '',
  options: InProcessOptions = {},
): Promise<InProcessResult> {
  const out = { stdout: '', stderr: '' };
  const previous = process.cwd();
  if (options.cwd !== undefined) process.chdir(options.cwd);
  try {
    const code = await main(args, {
      stdout: { write: (text: string) => (out.stdout += text) },
      stderr: { isTTY: false, write: (text: string) => (out.stderr += text) },
      stdin: Readable.from([stdin]),
      env: options.env ?? {},
    });
    return { code, ...out };
  } finally {
    process.chdir(previous);
  }
}

/** Exit 2, nothing on stdout, and exactly one `plan: error:` line, without a stack, that matches. */
export function expectOneLineUsageError(result: InProcessResult, pattern: RegExp): void {
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
  expect(result.stderr).toMatch(/^plan: error: [^\n]*\n$/);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).toMatch(pattern);
}
