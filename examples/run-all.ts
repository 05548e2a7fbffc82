/**
 * `npm run examples`: every walkthrough, in order, offline (the scripted provider plays the
 * model); `npm run examples -- 001 004` runs only those. Exits 1 when one of them throws, 2 for
 * a name that is not an example's.
 */
import { EXAMPLES } from './index.js';
import { printOutcome } from './example.js';

const wanted = process.argv.slice(2);
const unknown = wanted.filter((seed) => !EXAMPLES.some((example) => example.seed === seed));
if (unknown.length > 0) {
  console.error(
    `no example ${unknown.join(', ')}; the examples are ${EXAMPLES.map((e) => e.seed).join(', ')}`,
  );
  process.exit(2);
}

let failed = 0;
for (const example of EXAMPLES.filter((e) => wanted.length === 0 || wanted.includes(e.seed))) {
  try {
    printOutcome(example, await example.run());
  } catch (error) {
    failed++;
    console.error(
      `# ${example.seed}: ${example.title}\n  failed: ${(error as Error).stack ?? String(error)}`,
    );
  }
  console.log();
}
process.exitCode = failed === 0 ? 0 : 1;
