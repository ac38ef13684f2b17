// @ts-check
import fs from 'node:fs';
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Imports flow one way (ARCHITECTURE "Layout"): app -> features -> platform/lib/components. */
const oneWayDoors = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

/**
 * Tables have owners (issue 14, decision 017): a feature imports from db/schema only its own
 * tables and the shared ones; another feature's rows go through that feature's service or its
 * *.queries.ts. The map is server/src/db/table-owners.json.
 */
const TABLES = JSON.parse(fs.readFileSync(new URL('./server/src/db/table-owners.json', import.meta.url), 'utf8'));
const FEATURES = fs
  .readdirSync(new URL('./server/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const A_FEATURE_DOES_NOT_IMPORT_THE_APP = {
  group: ['**/app.ts', '**/main.ts'],
  message: 'A feature does not import the app.',
};
const featureBoundaries = FEATURES.map((feature) => ({
  files: [`server/src/features/${feature}/**`],
  // Tests may look at any table: they check what the code wrote.
  ignores: ['**/*.test.ts'],
  rules: oneWayDoors([
    A_FEATURE_DOES_NOT_IMPORT_THE_APP,
    ...Object.entries(TABLES.owners)
      .filter(([owner]) => owner !== feature)
      .map(([owner, tables]) => ({
        group: ['**/db/schema.ts', '**/db/schema'],
        importNames: tables,
        message: `${tables.join(', ')} belong to ${owner}: call its service or its queries module (decision 017).`,
      })),
  ]),
}));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', 'playwright-report/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // process.env is read in one place only: server/src/config.ts (STYLE 2).
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through server/src/config.ts.' },
      ],
    },
  },
  {
    // Issue 14: no type escapes. `x as unknown as T` tells the compiler to stop checking; narrow the
    // value (a type guard, instanceof) or fix the declared type instead.
    files: ['server/**/*.{ts,tsx}', 'contract/**/*.{ts,tsx}', 'web/**/*.{ts,tsx}', 'e2e/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          // `x as unknown as T`, and the same written with angle brackets (`<T>(<unknown>x)`).
          selector:
            ':matches(TSAsExpression, TSTypeAssertion)[expression.type=/^(TSAsExpression|TSTypeAssertion)$/][expression.typeAnnotation.type="TSUnknownKeyword"]',
          message: 'No `as unknown as`: narrow the value or fix its declared type.',
        },
      ],
    },
  },
  {
    files: [
      'server/src/config.ts',
      'playwright.config.ts',
      'e2e/**',
      'vitest.config.ts',
      '**/*.test.ts',
      'server/src/testing/**',
      'bench/**',
      'server/bench/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // React: the rules of hooks and the React Compiler's checks, and accessible JSX (issue 14).
  { files: ['web/**/*.{ts,tsx}'], ...reactHooks.configs.flat['recommended-latest'] },
  { files: ['web/**/*.tsx'], ...jsxA11y.configs.recommended },
  {
    // Issue 14: a test waits for what it expects (waitFor, settled, find in web/src/testing), never
    // for a fixed time: a sleep is slow when idle and flaky under load.
    files: ['web/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'contract/**/*.test.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'No fixed sleeps in tests: wait for the outcome (waitFor, fake timers).' },
      ],
    },
  },
  {
    files: ['contract/src/**'],
    rules: oneWayDoors([{ group: ['**/server/**', '**/web/**'], message: 'The contract depends on nothing of ours.' }]),
  },
  {
    files: ['server/src/platform/**', 'server/src/db/**'],
    rules: oneWayDoors([
      {
        group: ['**/features/**', '**/app.ts', '**/plugins/**'],
        message: 'platform and db sit below features and plugins.',
      },
    ]),
  },
  {
    files: ['server/src/plugins/**'],
    rules: oneWayDoors([
      { group: ['**/features/**', '**/app.ts'], message: 'Plugins are cross-cutting: they know no feature.' },
    ]),
  },
  {
    files: ['server/src/features/**/*.test.ts'],
    rules: oneWayDoors([A_FEATURE_DOES_NOT_IMPORT_THE_APP]),
  },
  ...featureBoundaries,
  {
    files: ['web/src/components/**', 'web/src/lib/**'],
    rules: oneWayDoors([{ group: ['**/features/**', '**/app/**'], message: 'Generic UI and lib know no feature.' }]),
  },
  {
    files: ['web/src/features/**'],
    rules: oneWayDoors([
      { group: ['**/app/router*', '**/app/routes*'], message: 'A feature page does not import the router.' },
    ]),
  },
);
