/**
 * A tool runs in the `plan` process itself, so it can end that process: `process.exit(0)` in a
 * tool (or its module, or a dependency). Left alone, `plan run` would then end with the tool's
 * exit code (0: success to any script) and no word about the run. While a run is in flight this guard listens for the
 * process's `exit` event: if the run has not finished, it writes one line on stderr naming the
 * calls that were running and makes the exit code {@link ExitCode.RUN_FAILED}. The same holds
 * when the reader of `--events` closes stdout early (bin/plan.js then exits 0): the calls it
 * names were cut off, so the run did not succeed.
 *
 * Node honours `process.exitCode` set in an `exit` listener, also after an explicit
 * `process.exit(0)`: it exits with `process.exitCode` once the listeners have run. Only
 * synchronous work is possible there, hence `writeSync` on fd 2.
 */
import { writeSync } from 'node:fs';
import type { CompiledPlan } from '../../compile/types.js';
import type { RunEvent } from '../../run/types.js';
import { ExitCode } from '../exit-codes.js';
import { clip, formatCliError } from '../output/index.js';

/** Most running calls named in the line; the rest are counted. */
const MAX_NAMED = 10;

export interface RunExitGuardOptions {
  /** The plan being run: a running call's index comes from it. */
  readonly plan: CompiledPlan;
  /** How the plan file is named in the line (its path, or `<stdin>`). */
  readonly source: string;
  /**
   * Writes the line; stderr's file descriptor, synchronously (an `exit` listener cannot wait).
   * @default (text) => writeSync(2, text)
   */
  readonly write?: (text: string) => void;
}

/** Armed for the length of one run: {@link arm} before it starts, {@link disarm} when it ends. */
export class RunExitGuard {
  /** Each running call's id, with its tool. */
  readonly #running = new Map<string, string>();
  readonly #plan: CompiledPlan;
  readonly #source: string;
  readonly #write: (text: string) => void;
  readonly #onExit = (code: number): void => this.#ended(code);

  constructor(options: RunExitGuardOptions) {
    this.#plan = options.plan;
    this.#source = options.source;
    this.#write = options.write ?? ((text) => writeSync(2, text));
  }

  arm(): void {
    process.on('exit', this.#onExit);
  }

  /** The run has finished (or failed in planmode itself): the process may end as it likes. */
  disarm(): void {
    process.removeListener('exit', this.#onExit);
  }

  /** Keeps the set of running calls: a call runs from its `call:start` to its `call:end`. */
  onEvent(event: RunEvent): void {
    if (event.type === 'call:start') this.#running.set(event.call, event.tool);
    else if (event.type === 'call:end') this.#running.delete(event.call);
  }

  /** The line the guard writes when the process ends with the run still in flight. */
  line(code: number): string {
    const named: string[] = [];
    for (const [call, tool] of this.#running) {
      if (named.length === MAX_NAMED) break;
      named.push(
        `call ${clip(call, 100)} (index ${this.#plan.indexOf(call) ?? '?'}, tool ${clip(tool, 100)})`,
      );
    }
    const more = this.#running.size - named.length;
    const running =
      named.length === 0
        ? 'while no call was running'
        : `while ${this.#running.size === 1 ? 'this call was' : `${this.#running.size} calls were`} running: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
    return formatCliError(
      `the process was ended (exit code ${code}) before the run of ${clip(this.#source, 200)} finished, ${running}; did a tool call process.exit()? The run's result is lost: exit code ${ExitCode.RUN_FAILED}`,
    );
  }

  #ended(code: number): void {
    try {
      this.#write(this.line(code));
    } catch {
      // stderr is gone: the exit code still tells.
    }
    process.exitCode = ExitCode.RUN_FAILED;
  }
}
