/**
 * The child process of `bench:hostile`: loads one build, builds one attack's input, performs
 * the attack, and prints what it measured as its last line of JSON: the attack's own time (the
 * input's building is left out), the process's peak resident set, and the outcome. An attack
 * that throws is an outcome too (`threw <name>: <message>`): a build that refuses an input by
 * throwing has answered it.
 *
 *     node dist/bench/hostile-child.js <build directory> <attack> <scale> <folder>
 */
import { ATTACKS } from './hostile-attacks.js';
import { loadBuild } from './hostile-build.js';

/** What the child prints as its last line. */
export interface ChildReport {
  readonly ms: number;
  readonly peakMb: number;
  readonly outcome: string;
}

function shortError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.split('\n', 1)[0]!;
  return `threw ${line.length > 120 ? `${line.slice(0, 119)}…` : line}`;
}

async function main(): Promise<void> {
  const [directory, name, scaleText, folder] = process.argv.slice(2);
  const attack = ATTACKS.find((a) => a.name === name);
  if (!directory || !attack || !folder) {
    console.error('usage: node dist/bench/hostile-child.js <build directory> <attack> <scale> <folder>');
    process.exit(2);
  }
  const build = await loadBuild(directory);
  const perform = await attack.prepare(build, Number(scaleText), folder);
  const start = performance.now();
  let outcome: string;
  try {
    outcome = await perform();
  } catch (error) {
    outcome = shortError(error);
  }
  const ms = performance.now() - start;
  const report: ChildReport = { ms, peakMb: process.resourceUsage().maxRSS / 1024, outcome };
  console.log(JSON.stringify(report));
  // A tool's timer or a provider's socket left open must not keep the child (and the bench) waiting.
  process.exit(0);
}

await main();
