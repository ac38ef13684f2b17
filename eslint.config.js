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
 * Tables have owners (decision 017): a feature imports from db/schema only its own
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

/** `x as unknown as T`, and the same written with angle brackets (`<T>(<unknown>x)`). */
const NO_TYPE_ESCAPES = {
  selector:
    ':matches(TSAsExpression, TSTypeAssertion)[expression.type=/^(TSAsExpression|TSTypeAssertion)$/][expression.typeAnnotation.type="TSUnknownKeyword"]',
  message: 'No `as unknown as`: narrow the value or fix its declared type.',
};

const UNDERSCORE_MESSAGE = "A library's underscore members are its own: use its documented API (STYLE 13).";
const NO_UNDERSCORE_MEMBERS = [
  // obj._private, obj._, obj['_private']
  { selector: 'MemberExpression[property.name=/^_/]', message: UNDERSCORE_MESSAGE },
  { selector: 'MemberExpression[computed=true][property.value=/^_/]', message: UNDERSCORE_MESSAGE },
  // '_private' in obj; Object.assign(obj, { _private: ... })
  { selector: "BinaryExpression[operator='in'][left.value=/^_/]", message: UNDERSCORE_MESSAGE },
  { selector: "CallExpression[callee.property.name='assign'] Property[key.name=/^_/]", message: UNDERSCORE_MESSAGE },
  // Reflect.get(obj, '_private') and Reflect.get(SomeClass.prototype, ...)
  {
    selector: "CallExpression[callee.object.name='Reflect'] > MemberExpression[property.name='prototype']",
    message: UNDERSCORE_MESSAGE,
  },
  { selector: "CallExpression[callee.object.name='Reflect'] > Literal[value=/^_/]", message: UNDERSCORE_MESSAGE },
];

/**
 * A library's functions are not replaced (STYLE 13): no assignment to a member of an imported
 * binding (`pako.deflate = ...`, `pg.Result.prototype.addFields = ...`), and no Object.assign,
 * Object.defineProperty or Reflect.set onto one.
 */
const noLibraryPatching = {
  meta: {
    type: 'problem',
    messages: { patch: "'{{name}}' is imported: change the design, not the library (STYLE 13)." },
    schema: [],
  },
  create(context) {
    const importedRoot = (node) => {
      let root = node;
      const wrappers = ['MemberExpression', 'TSAsExpression', 'TSTypeAssertion', 'TSNonNullExpression'];
      while (wrappers.includes(root.type)) root = root.type === 'MemberExpression' ? root.object : root.expression;
      if (root.type !== 'Identifier') return undefined;
      for (let scope = context.sourceCode.getScope(root); scope; scope = scope.upper) {
        const variable = scope.set.get(root.name);
        if (variable) return variable.defs.some((def) => def.type === 'ImportBinding') ? root.name : undefined;
      }
      return undefined;
    };
    const report = (node, target) => {
      const name = importedRoot(target);
      if (name) context.report({ node, messageId: 'patch', data: { name } });
    };
    return {
      AssignmentExpression(node) {
        if (node.left.type === 'MemberExpression') report(node, node.left);
      },
      CallExpression(node) {
        const { callee } = node;
        if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier') return;
        const patchers = {
          Object: ['assign', 'defineProperty', 'defineProperties'],
          Reflect: ['set', 'defineProperty'],
        };
        const methods = patchers[callee.object.name];
        if (
          methods &&
          callee.property.type === 'Identifier' &&
          methods.includes(callee.property.name) &&
          node.arguments[0]
        ) {
          report(node, node.arguments[0]);
        }
      },
    };
  },
};

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
    // No type escapes (STYLE 5). `x as unknown as T` tells the compiler to stop checking; narrow the
    // value (a type guard, instanceof) or fix the declared type instead.
    files: ['server/**/*.{ts,tsx}', 'contract/**/*.{ts,tsx}', 'web/**/*.{ts,tsx}', 'e2e/**/*.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', NO_TYPE_ESCAPES] },
  },
  {
    // Libraries through their documented API (STYLE 13, decision 053): outside tests, nothing reads or
    // writes a library's underscore members or replaces a library's functions.
    files: ['server/**/*.{ts,tsx}', 'contract/**/*.{ts,tsx}', 'web/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**'],
    ignores: ['**/*.test.{ts,tsx}', 'server/src/testing/**', 'web/src/testing/**'],
    plugins: { local: { rules: { 'no-library-patching': noLibraryPatching } } },
    rules: {
      'no-restricted-syntax': ['error', NO_TYPE_ESCAPES, ...NO_UNDERSCORE_MEMBERS],
      'local/no-library-patching': 'error',
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
  // React: the rules of hooks and the React Compiler's checks, and accessible JSX.
  { files: ['web/**/*.{ts,tsx}'], ...reactHooks.configs.flat['recommended-latest'] },
  { files: ['web/**/*.tsx'], ...jsxA11y.configs.recommended },
  {
    // A test waits for what it expects (waitFor, settled, find in web/src/testing), never
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
