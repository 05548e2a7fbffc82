/**
 * What every example is: one agent framework's plan mode, walked through once, run offline with the scripted provider in a
 * folder of its own, ending in an outcome that says what happened (files written, tools
 * called, latch states, refunds issued). `npm run examples` runs them all; the tests assert
 * each outcome.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
