import { defineConfig } from 'vitest/config';

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
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED_FILES, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED_FILES, isolate: true } },
    ],
  },
});
