import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['contract/src/**/*.test.ts', 'server/src/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
    globalSetup: ['server/src/testing/global-setup.ts'],
    setupFiles: ['server/src/testing/console-guard.ts', 'server/src/testing/password-cost.ts'],
    // Each file opens its own database; two cores run two files at once.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
