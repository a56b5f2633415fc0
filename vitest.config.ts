import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The event-loop stall test measures how long this process's loop is held. On a 2-core machine
 * another test file running beside it takes CPU from the loop whatever our code does, so it
 * runs alone, after the rest of the suite.
 */
const RUNS_ALONE = ['test/integration/app/event-loop.test.ts'];

/**
 * Three test files at a time on a 2-core machine: most files spend their time waiting on
 * servers, Git, HAProxy and Chromium rather than on the CPU. With two the whole suite took 7m17s
 * of vitest time on a fresh clone (8 minutes with the build), with three 6m31s.
 */
const WORKERS = 3;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: WORKERS,
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...RUNS_ALONE],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        // The event loop is measured with the young generation `npm start` gives the service.
        test: {
          name: 'alone',
          include: RUNS_ALONE,
          sequence: { groupOrder: 1 },
          execArgv: ['--max-semi-space-size=64'],
        },
      },
    ],
  },
});
