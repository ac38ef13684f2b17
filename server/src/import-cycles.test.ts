import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// No import cycles in server/src or web/src. A cycle means two modules cannot be
// understood (or loaded) one without the other; it is how a rule ends up in the wrong place.
// The project imports with explicit extensions, so a regex over the source finds every edge.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`, relative only. */
const importPattern =
  /(?:^|[;\n])\s*(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  if (base.endsWith('.js')) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  return candidates.find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate));
}

function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const match of text.matchAll(importPattern)) {
      const target = resolveImport(file, match[1] ?? match[2]!);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every strongly connected component of more than one module (or a module importing itself). */
function findCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;

  const visit = (node: string) => {
    index.set(node, next);
    lowLink.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(target)!));
      } else if (onStack.has(target)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(target)!));
      }
    }
    if (lowLink.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };

  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

function describeCycles(dir: string): string[] {
  return findCycles(importGraph(dir)).map((component) =>
    component.map((file) => relative(repoRoot, file)).join(' <-> '),
  );
}

describe('import cycles', () => {
  it('finds a cycle through three modules and none in a chain', () => {
    const cyclic = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(cyclic)).toEqual([['a', 'b', 'c']]);
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads the relative imports of app.ts', () => {
    const graph = importGraph(join(repoRoot, 'server/src'));
    expect(graph.get(join(repoRoot, 'server/src/app.ts'))).toEqual(
      expect.arrayContaining([join(repoRoot, 'server/src/deps.ts'), join(repoRoot, 'server/src/plugins/web.ts')]),
    );
  });

  it('has none in server/src', () => {
    expect(describeCycles(join(repoRoot, 'server/src'))).toEqual([]);
  });

  it('has none in web/src', () => {
    expect(describeCycles(join(repoRoot, 'web/src'))).toEqual([]);
  });
});
