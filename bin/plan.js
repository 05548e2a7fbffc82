#!/usr/bin/env node
// The `plan` command. Build first (`npm run build`): this runs the compiled dist/.
import { main } from '../dist/src/cli/main.js';

// A reader that closes the pipe early (`plan graph big.json | head`) is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const code = await main(process.argv.slice(2));
// process.exit does not wait for piped output; flush both streams first.
await Promise.all(
  [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
);
process.exit(code);
