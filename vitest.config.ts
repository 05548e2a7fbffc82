import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that run isolated: those that replace a module (vi.mock) need a module graph of
 * their own, and one that measures the process's memory needs a heap no earlier file has grown.
 * Every other file shares its worker's modules with the files before it: loading the source anew
 * for each of 240 files was most of the suite's time (imports 188 s of 330 s).
 */
const ISOLATED_FILES = [
  'test/run/journal.test.ts',
  'test/security/branch-work.test.ts',
  'test/agent/solve-huge-reply.test.ts',
];

/**
 * The files that took longest in CI (9 s or more each on the 2-core machine), slowest first. The
 * two workers take files in order as they free up, so one of these starting last would end the
 * run alone for as long as it takes; started first, the many short files fill in behind them.
 * A fresh clone has no duration cache for vitest to order by (it orders by file size then).
 */
const SLOW_FILES = [
  'test/package/install.test.ts',
  'test/security/hostile-corpus.test.ts',
  'test/optional-dependencies.test.ts',
  'test/report/html-report.browser.test.ts',
  'test/cli/mcp.test.ts',
  'test/security/plan-file-race.test.ts',
  'test/report/first-screen.browser.test.ts',
  'test/cli/process-contract.test.ts',
  'test/distributed/cli.test.ts',
  'test/security/journal-devices.test.ts',
  'test/property/scale.test.ts',
  'test/run/resume.test.ts',
  'test/tools/safe-formats.test.ts',
];

/** vitest's order (each project's files together), with SLOW_FILES first within each project. */
class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    const rank = (file: TestSpecification) => {
      const at = SLOW_FILES.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return at < 0 ? SLOW_FILES.length : at;
    };
    const position = new Map(sorted.map((file, k) => [file, k]));
    return sorted.sort(
      (a, b) =>
        projects.indexOf(a.project.name) - projects.indexOf(b.project.name) ||
        rank(a) - rank(b) ||
        position.get(a)! - position.get(b)!,
    );
  }
}

export default defineConfig({
  test: {
    // Each test file in a child process (a fork): the in-process CLI tests change the working
    // directory (worker threads cannot), and a file's tests run one at a time.
    pool: 'forks',
    // vitest's default on 2 cores is 1 worker; most slow files wait on child processes and
    // servers, so 2 keep both cores busy without starving the processes they start.
    maxWorkers: 2,
    // Limits that hold on a loaded 2-core machine: a hang still fails, a slow start does not.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED_FILES, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED_FILES, isolate: true } },
    ],
  },
});
