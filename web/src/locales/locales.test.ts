import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';

type Tree = { [key: string]: string | Tree };

function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

function valueAt(tree: Tree, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], tree);
}

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('translations', () => {
  it('has the same keys in English and Spanish', () => {
    expect(keysOf(es as Tree).sort()).toEqual(keysOf(en as Tree).sort());
  });

  it('keeps the same {{placeholders}} in both languages', () => {
    for (const key of keysOf(en as Tree)) {
      const names = (text: unknown) => [...String(text).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(names(valueAt(es as Tree, key)), key).toEqual(names(valueAt(en as Tree, key)));
    }
  });

  it('has every key the pages ask for', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(SRC)) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(50);
    // A count's key is written as its plural forms (key_one, key_other).
    const has = (key: string) => typeof valueAt(en as Tree, key) === 'string';
    const missing = [...used].filter((key) => !has(key) && !has(`${key}_other`));
    expect(missing).toEqual([]);
  });

  it('words the spec quotes exactly as the spec does', () => {
    expect(en.register.missing).toBe('Please fill out all fields.');
    expect(en.register.selectCourt).toBe('Select a court...');
    expect(en.register.duplicateTitle).toBe('Important Notice');
    expect(en.login.invalid).toBe('Invalid username or password');
    expect(en.pay.payNow).toBe('Pay ${{amount}} now');
    expect(en.pay.status.succeeded).toBe('Payment succeeded! Please wait...');
    expect(en.course.chooseModule).toBe('Choose a module to begin!');
    expect(en.quiz.answerAll).toBe('Please answer all questions.');
    expect(en.quiz.loadError).toBe('Error loading quiz. Please try again.');
  });
});
