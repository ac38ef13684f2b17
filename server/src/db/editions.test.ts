import { describe, expect, it } from 'vitest';
import {
  BANK_LIMITS,
  findRejectedTerms,
  longestCorrectShare,
  readRejectedSpanishTerms,
  shortestCorrectShare,
  similarQuestions,
  unsourcedQuestions,
} from './bank-quality.ts';
import { LANGUAGES, moduleWords, readCourseContent, readEditions } from './content-files.ts';

/**
 * State editions (content/editions/<id>): each state's own law, in modules added to the shared
 * chapters, with questions of its own (../shared/STATE-RULES.md). Held to the shared course's rules.
 */
const editions = readEditions();
const shared = readCourseContent();
const rejected = readRejectedSpanishTerms();

describe('the state editions', () => {
  it('holds a Texas, a Florida and a California edition', () => {
    expect(editions.map((edition) => [edition.id, edition.state])).toEqual([
      ['ca', 'CA'],
      ['fl', 'FL'],
      ['tx', 'TX'],
    ]);
  });

  it.each(editions.map((edition) => [edition.id, edition] as const))(
    '%s: at least 2,000 words of state law per language, in modules that name the state and close with Key points',
    (_, edition) => {
      const modules = edition.chapters.flatMap((chapter) => chapter.modules);
      const stateName = { ca: 'California', fl: 'Florida', tx: 'Texas' }[edition.id]!;
      for (const language of LANGUAGES) {
        expect(modules.reduce((sum, module) => sum + moduleWords(module, language), 0)).toBeGreaterThanOrEqual(2_000);
      }
      expect(modules.some((module) => module.title.en.includes(stateName))).toBe(true);
      for (const module of modules) {
        expect(module.topics.length, module.key).toBeGreaterThanOrEqual(2);
        expect(module.topics.length, module.key).toBeLessThanOrEqual(4);
        expect(module.topics.at(-1)!.markdown.en, module.key).toMatch(/^### Key points$/m);
        expect(module.topics.at(-1)!.markdown.es, module.key).toMatch(/^### Puntos clave$/m);
        for (const language of LANGUAGES) {
          for (const topic of module.topics) expect(topic.markdown[language], topic.key).not.toMatch(/<[a-z!/]/i);
        }
        // Every statute is cited by its section: a module of state law names sections.
        expect(module.topics.map((topic) => topic.markdown.en).join('\n'), module.key).toMatch(
          /\d{2,3}\.\d+|\b\d{4,5}(\.\d+)?\b/,
        );
      }
    },
  );

  it.each(editions.map((edition) => [edition.id, edition] as const))(
    '%s: at least 20 questions of its own, each sourced from its modules, under the bank rules',
    (_, edition) => {
      const questions = edition.chapters.flatMap((chapter) => [...chapter.questions, ...chapter.finalQuestions]);
      expect(questions.length).toBeGreaterThanOrEqual(20);
      const keys = questions.map((question) => question.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const key of keys) expect(key).toMatch(new RegExp(`^(final-)?${edition.id}-ch\\d-q\\d+$`));
      const modulesOf = (chapter: number) =>
        edition.chapters.find((candidate) => candidate.id === chapter)?.modules ?? [];
      for (const language of LANGUAGES) {
        expect(unsourcedQuestions(questions, modulesOf, language)).toEqual([]);
        expect(longestCorrectShare(questions, language)).toBeLessThanOrEqual(BANK_LIMITS.longestCorrectShare);
        expect(shortestCorrectShare(questions, language)).toBeLessThanOrEqual(BANK_LIMITS.shortestCorrectShare);
        // No near-duplicate of each other or of a shared question.
        const all = [...shared.chapters.flatMap((chapter) => chapter.questions), ...questions];
        const pairs = similarQuestions(all, language).filter((pair) => pair.keys.some((key) => keys.includes(key)));
        expect(pairs).toEqual([]);
      }
      const spanish = JSON.stringify([
        ...questions.map((question) => [question.es, question.source?.es ?? '']),
        ...edition.chapters.flatMap((chapter) =>
          chapter.modules.flatMap((module) => module.topics.map((topic) => topic.markdown.es)),
        ),
      ]);
      expect(findRejectedTerms(spanish, rejected)).toEqual([]);
    },
  );
});
