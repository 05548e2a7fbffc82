/** The `plan` command's exit codes: the same number means the same thing for every subcommand. */
export const ExitCode = {
  /** Valid plan (warnings allowed), or the command did what was asked. */
  OK: 0,
  /** The plan has errors. */
  INVALID: 1,
  /** Bad usage, or an input of the CLI's own (plan file, tools, input, state) that cannot be used. */
  USAGE: 2,
  /** `plan run`: the run failed. */
  RUN_FAILED: 3,
  /** `plan run`: a call was rejected at approval. */
  REJECTED: 4,
  /** `plan agent`: a budget of the plan loop ran out (calls, model turns, tokens, wall time). */
  BUDGET_EXCEEDED: 5,
  /** `plan agent`: the model gave a plan that had already run from the same state, twice. */
  STALLED: 6,
  /** A bug in planmode itself (EX_SOFTWARE); the message asks for a report. */
  INTERNAL: 70,
  /** Interrupted by a signal (128 + SIGINT). */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
