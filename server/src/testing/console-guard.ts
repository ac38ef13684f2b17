import { afterEach, beforeEach, vi } from 'vitest';

// STYLE 7: a test fails if it logs console.error; an expected error must be asserted, not printed.
// Installed before each test: a test file's vi.restoreAllMocks() would otherwise remove it for
// every test after the first.
const errors: unknown[][] = [];

beforeEach(() => {
  errors.length = 0;
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});

afterEach(() => {
  if (errors.length > 0) {
    const logged = errors.splice(0).map((args) => args.map(String).join(' '));
    throw new Error(`console.error was called:\n${logged.join('\n')}`);
  }
});
