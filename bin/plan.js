#!/usr/bin/env node
// The `plan` command. It runs the compiled dist/, so build first (`npm run build`).

let main;
try {
  ({ main } = await import('../dist/src/cli/main.js'));
} catch (error) {
  const distMissing =
    error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/src/cli/main.js');
  if (!distMissing) throw error;
  process.stderr.write('plan: error: dist/ is missing: run `npm run build` in the planmode package first\n');
  process.exit(2);
}

// A reader that closes the pipe early (`plan graph big.json | head`) is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// A tool's own timer or callback that throws (or a promise it drops) runs outside any call, so
// no call can fail for it. Left to Node, it would kill a run midway or turn a finished run's
// exit code into 1, the code of an invalid plan: it is reported, and the exit code stays main()'s.
const MAX_STRAY_WARNINGS = 10;
let strayErrors = 0;
function onStrayError(error) {
  try {
    strayErrors++;
    // A throwing interval would otherwise bury the run's own output.
    if (strayErrors > MAX_STRAY_WARNINGS + 1) return;
    if (strayErrors > MAX_STRAY_WARNINGS) {
      process.stderr.write('plan: warning: more errors were thrown outside any call; they are not shown\n');
      return;
    }
    process.stderr.write(
      `plan: warning: an error was thrown outside any call (by a tool's timer or callback?): ${strayMessage(error)}\n`,
    );
    if (process.env.PLAN_DEBUG && typeof error?.stack === 'string') process.stderr.write(`${error.stack}\n`);
  } catch {
    // Nothing is left to report with; the run goes on.
  }
}
process.on('uncaughtException', onStrayError);
process.on('unhandledRejection', onStrayError);

/** The first line of what was thrown, whatever it is (a Proxy, an object whose getters throw). */
function strayMessage(error) {
  try {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const line = text.split('\n', 1)[0].trim();
    return line.length > 300 ? `${line.slice(0, 299)}…` : line;
  } catch {
    return 'a value that cannot be shown';
  }
}

const code = await main(process.argv.slice(2));
// process.exit does not wait for piped output: flush both streams first.
await Promise.all(
  [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
);
process.exit(code);
