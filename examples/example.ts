/**
 * What every example is: one agent framework's plan mode, walked through once, run offline with the scripted provider in a
 * folder of its own, ending in an outcome that says what happened (files written, tools
 * called, latch states, refunds issued). `npm run examples` runs them all; the tests assert
 * each outcome.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, normalize, sep } from 'node:path';

export interface ExampleOutcome {
  /** The lines the example prints: its story, in order. */
  readonly lines: readonly string[];
  /** What the tests check: the facts of the outcome, as plain data. */
  readonly facts: Readonly<Record<string, unknown>>;
}

export interface ExampleOptions {
  /**
   * The folder the example may write in (its workspace, its plans folder).
   * @default a new temporary folder
   */
  readonly workDir?: string;
}

export interface Example {
  /** The example's number, `000` to `004`: its file name's prefix, and what `npm run examples -- 001` picks. */
  readonly seed: string;
  /** One line: whose walkthrough, and what it shows. */
  readonly title: string;
  readonly run: (options?: ExampleOptions) => Promise<ExampleOutcome>;
}

/** The example's folder: the one given, or a new temporary one. */
export function workDirOf(options: ExampleOptions | undefined, seed: string): string {
  return options?.workDir ?? mkdtempSync(join(tmpdir(), `planmode-example-${seed}-`));
}

/** Prints an example's title and outcome. */
export function printOutcome(example: Example, outcome: ExampleOutcome): void {
  console.log(`# ${example.seed}: ${example.title}`);
  for (const line of outcome.lines) console.log(`  ${line}`);
}

/**
 * `path` resolved under `root`, for the examples' file tools: only relative paths that stay
 * inside (a model's argument is untrusted), else a TypeError the model reads as the tool's error.
 */
export function pathInside(root: string, path: unknown): string {
  if (typeof path !== 'string' || path === '' || isAbsolute(path)) {
    throw new TypeError(`path must be a relative path in the workspace, not ${JSON.stringify(path)}`);
  }
  const clean = normalize(path);
  if (clean === '..' || clean.startsWith(`..${sep}`)) {
    throw new TypeError(`path ${JSON.stringify(path)} leaves the workspace`);
  }
  return join(root, clean);
}
