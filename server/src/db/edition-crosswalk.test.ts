import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readCourseContent } from './content-files.ts';
import { buildCrosswalk } from './edition-crosswalk.ts';

const content = readCourseContent();

// Decision 051: a regulator reads docs/editions/<id>.md; it is the content's, never hand-kept.
describe("the state editions' crosswalks", () => {
  it.each(content.editions.map((edition) => [edition.id, edition] as const))(
    'docs/editions/%s.md is what the content says now (npm run editions:crosswalk)',
    (id, edition) => {
      const file = fileURLToPath(new URL(`../../../docs/editions/${id}.md`, import.meta.url));
      expect(fs.readFileSync(file, 'utf8')).toBe(buildCrosswalk(content, edition));
    },
  );

  it.each(content.editions.map((edition) => [edition.id, edition] as const))(
    '%s: every topic names a rule and modules the edition serves, and every own module is in a topic',
    (_, edition) => {
      expect(edition.topics.length).toBeGreaterThanOrEqual(8);
      const own = edition.chapters.flatMap((chapter) => chapter.modules.map((module) => module.key));
      const named = new Set(edition.topics.flatMap((topic) => topic.modules));
      for (const key of own) expect(named.has(key), key).toBe(true);
      expect(() => buildCrosswalk(content, edition)).not.toThrow();
    },
  );
});
