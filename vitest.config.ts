import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each test file in its own child process: the in-process CLI tests change the working
    // directory (worker threads cannot), and a file's tests run one at a time.
    pool: 'forks',
    // vitest's default on 2 cores is 1 worker; most slow files wait on child processes and
    // servers, so 2 keep both cores busy without starving the processes they start.
    maxWorkers: 2,
    // Limits that hold on a loaded 2-core machine: a hang still fails, a slow start does not.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
  },
});
