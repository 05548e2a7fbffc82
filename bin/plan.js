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

const code = await main(process.argv.slice(2));
// process.exit does not wait for piped output: flush both streams first.
await Promise.all(
  [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
);
process.exit(code);
