import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: [
      'server/src/testing/console-guard.ts',
      'server/src/testing/password-cost.ts',
      'server/src/testing/caching.ts',
    ],
    // Two cores run two files at once.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['contract/src/**/*.test.ts', 'server/src/**/*.test.ts'],
          // One migrated template database, made once; each test file starts from a copy of it.
          globalSetup: ['server/src/testing/global-setup.ts'],
          // The server's files share a worker's loaded modules: loading the same modules again per
          // file was much of the suite's time (bench/README.md, "Test suite time"). Each file still opens its own
          // database and app, and keeps no state in modules: a test that needs a clock, a mailer
          // or a spy passes or restores its own.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
