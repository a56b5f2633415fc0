import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that bound how long this process's loop is held, or how long a first answer takes, run
 * alone, after the rest of the suite: on a 2-core machine another test file running beside them
 * takes CPU from the server whatever our code does.
 */
const RUNS_ALONE = [
  'test/integration/app/event-loop.test.ts',
  'test/integration/app/first-search-after-restart.test.ts',
  'test/integration/app/search-after-import.test.ts',
];

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
          // Each worker imports the service once for all the files it runs, not once per file:
          // the import (express, both MCP SDKs, the OIDC provider, isomorphic-git) took about a
          // second of CPU per file, four minutes of the suite's. No test mocks or stubs modules,
          // and every file starts its services in a fresh data directory of its own.
          isolate: false,
        },
      },
      {
        extends: true,
        // The event loop is measured with the young generation `npm start` gives the service.
        test: {
          name: 'alone',
          include: RUNS_ALONE,
          sequence: { groupOrder: 1 },
          // One file at a time: each is the only work on the machine while it measures.
          maxWorkers: 1,
          execArgv: ['--max-semi-space-size=64'],
        },
      },
    ],
  },
});
