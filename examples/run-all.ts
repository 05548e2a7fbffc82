/**
 * `npm run examples`: every seed's walkthrough, in order, offline (the scripted provider plays
 * the model). Exits 1 when one of them throws.
 */
import { EXAMPLES } from './index.js';
import { printOutcome } from './example.js';

let failed = 0;
for (const example of EXAMPLES) {
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
