import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_DIR, readCourseContent } from './content-files.ts';

/**
 * Every figure of the course text has a source in content/sources.md (address and year). The
 * figures a reader most needs to trust, every percentage and every count written with thousands
 * ("40,901 deaths"), must appear there as the module writes them.
 */
const SOURCES = fs.readFileSync(path.join(CONTENT_DIR, 'sources.md'), 'utf8');
const modules = readCourseContent().chapters.flatMap((chapter) => chapter.modules);

/** The percentages and the counts with thousands separators an English text states. */
function statedFigures(text: string): string[] {
  const percentages = [...text.matchAll(/\b(\d+(?:\.\d+)?)\s?(?:%|percent\b)/g)].map((match) => `${match[1]!}%`);
  const counts = [...text.matchAll(/\b\d{1,3}(?:,\d{3})+\b/g)].map((match) => match[0]);
  // A death toll however it is written ("684 deaths", "39 children died", "45 were killed").
  const tolls = [...text.matchAll(/\b(\d[\d,]*)\s+(?:[a-z]+\s+){0,3}?(?:deaths|died|were killed|killed|dead)\b/gi)].map(
    (match) => match[1]!,
  );
  return [...new Set([...percentages, ...counts, ...tolls])];
}

/** Whether sources.md lists a figure: a count as written, a percentage with "%", " %" or " percent". */
function listed(figure: string): boolean {
  if (!figure.endsWith('%')) return SOURCES.includes(figure);
  const number = figure.slice(0, -1);
  return new RegExp(`(?<![\\d.])${number.replace('.', '\\.')}\\s?(?:%|percent)`).test(SOURCES);
}

describe('content/sources.md', () => {
  it('finds the figures a text states', () => {
    expect(
      statedFigures('In 2023, 40,901 people died; 29% were speeding and 12.5 percent drank. 39 children died.'),
    ).toEqual(['29%', '12.5%', '40,901', '39']);
  });

  it.each(modules.map((module) => [module.key, module] as const))(
    'lists every percentage and count the module %s states',
    (_, module) => {
      const text = module.topics.map((topic) => topic.markdown.en).join('\n');
      const missing = statedFigures(text).filter((figure) => !listed(figure));
      expect(missing).toEqual([]);
    },
  );

  it('names every chapter and gives addresses', () => {
    for (const chapter of [1, 2, 3, 4]) expect(SOURCES).toContain(`## Chapter ${String(chapter)}`);
    expect(SOURCES.match(/https?:\/\//g)?.length ?? 0).toBeGreaterThan(100);
  });
});
