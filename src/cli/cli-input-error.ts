/**
 * A problem with the CLI's own inputs (a missing plan file, a malformed input file, a flag that
 * does not fit): printed as one `plan: error: ...` line, exit code 2, never a stack trace.
 */
export class CliInputError extends Error {
  override name = 'CliInputError';
}
