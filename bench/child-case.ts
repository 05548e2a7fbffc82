/**
 * One child process per table row: each case starts with a fresh heap, so a row's time and peak
 * memory are its own. The script runs itself with `--case <shape> <size>` and prints the case's
 * result as its last line of JSON.
 */
import { execFileSync } from 'node:child_process';

export interface ChildCaseOptions {
  /** The bench script's own path (`fileURLToPath(import.meta.url)`). */
  readonly script: string;
  readonly shape: string;
  readonly size: number;
  /**
   * Node flags for the child, e.g. `--expose-gc`.
   * @default []
   */
  readonly nodeFlags?: readonly string[];
}

export function runChildCase<T>(options: ChildCaseOptions): T {
  const out = execFileSync(
    process.execPath,
    [...(options.nodeFlags ?? []), options.script, '--case', options.shape, String(options.size)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}
