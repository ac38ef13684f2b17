import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Two habits of the codebase (../shared/STYLE.md), checked so they hold: comments speak of the
// code, never of the tracker (STYLE 14), and a feature file is read in one sitting.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.tmp', 'data', 'test-results', 'playwright-report']);

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : filesUnder(path, pattern);
    return pattern.test(entry.name) ? [path] : [];
  });
}

/** The tracker's words, built so this file does not match itself. */
const TRACKER_REFERENCE = new RegExp(`\\b${'iss'}ues? [0-9]+`, 'i');
const TEXT_FILE = /\.(ts|tsx|js|mjs|json|md|html|css|sql|yml|yaml)$|^run$/;

describe('the tree', () => {
  it('names no tracker item in code, tests, comments or docs: a spec section, a decision or a statute instead', () => {
    const places = ['contract', 'server', 'web', 'e2e', 'bench', 'scripts', 'docs', '.ci'].flatMap((dir) =>
      filesUnder(join(repoRoot, dir), TEXT_FILE),
    );
    const rootFiles = readdirSync(repoRoot)
      .filter((name) => TEXT_FILE.test(name) && name !== 'package-lock.json')
      .map((name) => join(repoRoot, name));
    const found = [...places, ...rootFiles].flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          TRACKER_REFERENCE.test(line) ? [`${relative(repoRoot, file)}:${String(index + 1)}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it('keeps every feature file of the server under 450 lines', () => {
    const long = filesUnder(join(repoRoot, 'server/src/features'), /\.ts$/)
      .filter((file) => !file.endsWith('.test.ts'))
      .map((file) => ({ file: relative(repoRoot, file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > 450);
    expect(long).toEqual([]);
  });
});
