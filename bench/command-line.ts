/** A bench's command line: a bad flag prints its usage line and exits 2, never a stack trace. */
export interface BenchCommandLine {
  /** Prints `<bench>: <message>` and the usage line, then exits 2. */
  fail(message: string): never;
  /** A flag's value as a whole number >= least, or fail(). */
  wholeNumber(name: string, value: string, least: number): number;
}

export function benchCommandLine(bench: string, usage: string): BenchCommandLine {
  const fail = (message: string): never => {
    console.error(`${bench}: ${message}\n${usage}`);
    process.exit(2);
  };
  return {
    fail,
    wholeNumber(name, value, least) {
      const n = Number(value);
      if (!Number.isSafeInteger(n) || n < least)
        fail(`--${name} must be a whole number >= ${least}, not "${value}"`);
      return n;
    },
  };
}
