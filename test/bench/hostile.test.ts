/**
 * `npm run bench:hostile` keeps working: the built script, at a tenth of the size, prints one
 * markdown table with a row per attack and, per build, its time, peak memory and outcome; a child
 * past the time limit is killed and its row says so. No timing is asserted.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { builtModule } from '../built.js';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

async function bench(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const script = fileURLToPath(builtModule('bench/hostile.js'));
  return run(process.execPath, [script, ...args], { cwd: ROOT, maxBuffer: 1 << 20 });
}

/** The table's lines, each split into its cells. */
function table(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('| '))
    .map((line) =>
      line
        .slice(2, -2)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

describe('bench:hostile', () => {
  it('two builds side by side: a row per attack, time, peak and outcome per build, and their ratio', async () => {
    // The same checkout twice stands for a before and an after build; the cheapest row keeps it quick.
    const args = ['--sizes', 'small', '--timeout', '50', '--only', 'or-alternatives-baseline'];
    const { stdout } = await bench(ROOT, ROOT, ...args);
    const [header, row, ...more] = table(stdout);
    expect(more).toEqual([]);
    expect(header).toHaveLength(2 + 3 * 2 + 1);
    expect(header!.slice(0, 2)).toEqual(['attack', 'size']);
    for (const at of [2, 5]) {
      expect(header!.slice(at, at + 3)).toEqual([
        expect.stringMatching(/ time$/),
        expect.stringMatching(/ peak MB$/),
        expect.stringMatching(/ outcome$/),
      ]);
    }
    expect(header!.at(-1)).toMatch(/ time$/);
    expect(row).toHaveLength(header!.length);
    expect(row!.slice(0, 2)).toEqual(['baseline: N plain paths, each read', '1,600 paths']);
    for (const at of [2, 5]) {
      expect(row![at]).toMatch(/^\d+\.\d+ s$/);
      expect(Number(row![at + 1])).toBeGreaterThan(0);
      expect(row![at + 2]).toBe('valid');
    }
    expect(row!.at(-1)).toMatch(/^\d+\.\dx$/);
  });

  it('a child past the time limit is killed, and its row says so', async () => {
    // 10 ms from the child's start: no build is loaded by then, let alone an input built.
    const { stdout } = await bench('--sizes', 'small', '--timeout', '0.01', '--only', 'enum-vs-enum');
    const [header, row] = table(stdout);
    expect(header).toHaveLength(5);
    expect(row).toEqual([
      "writer's `enum` against reader's `enum`",
      '5,000 values',
      '> 0.01 s',
      expect.stringMatching(/^(≥ \d+|\?)$/),
      'timeout (killed)',
    ]);
  });

  it('an unknown attack is refused with the names there are', async () => {
    await expect(bench('--only', 'nope')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/no attack "nope"; there are or-alternatives, .*model-tool-calls/),
    });
  });
});
