/**
 * The real, built `plan` (bin/plan.js over dist/) as a child process that runs beside the test,
 * for the tests where a process is the point: signals, exit codes, a tool's stray errors.
 * Every child is killed after each test, so a test that fails while waiting leaves no orphan.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { afterEach } from 'vitest';
import { BIN } from './helpers.js';

export interface PlanProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** What it wrote so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Its exit code, or null when a signal ended it. */
  readonly exited: Promise<number | null>;
  /**
   * Resolves once `stream` matches `pattern`; rejects, with what it wrote, when the process
   * exits first or after `timeoutMs`.
   */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs?: number): Promise<void>;
}

export interface SpawnPlanOptions {
  /** The working directory. */
  readonly cwd: string;
  /**
   * Variables added to the environment.
   * @default {}
   */
  readonly env?: Record<string, string>;
}

const running = new Set<ChildProcessWithoutNullStreams>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** `plan <args>` in a child process, its stdin closed. */
export function spawnPlan(args: readonly string[], options: SpawnPlanOptions): PlanProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env });
  child.stdin.end();
  running.add(child);
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const said = () => `\nstdout: ${output.stdout}\nstderr: ${output.stderr}`;
  return {
    child,
    get stdout() {
      return output.stdout;
    },
    get stderr() {
      return output.stderr;
    },
    exited,
    waitFor: (stream, pattern, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(output[stream])) return;
          stop();
          resolve();
        };
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`no ${pattern} on ${stream} within ${timeoutMs} ms${said()}`));
        }, timeoutMs);
        const stop = () => {
          clearTimeout(timer);
          child[stream].off('data', check);
        };
        child[stream].on('data', check);
        void exited.then((code) => {
          stop();
          if (!pattern.test(output[stream])) reject(new Error(`exited ${code} before ${pattern}${said()}`));
        });
        check();
      }),
  };
}
