import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BANK_LIMITS,
  CHAPTER_QUIZ,
  absolutesShares,
  findRejectedTerms,
  longestCorrectShare,
  shortestCorrectShare,
  sameFactPairs,
  hedgesShares,
  longestPickerPassChance,
  positionShares,
  readRejectedSpanishTerms,
  similarQuestions,
  unsourcedQuestions,
} from './bank-quality.ts';
import { CONTENT_DIR, LANGUAGES, type QuestionContent, readCourseContent } from './content-files.ts';

/**
 * Decision 023: the exam measures reading. Each bank (a chapter's quiz bank, and each chapter's share
 * of the final's own bank) in each language is held to the limits of bank-quality.ts; the figures
 * themselves are printed by `npm run content:stats`.
 */
const content = readCourseContent();
const modulesOf = (id: number) => content.chapters.find((chapter) => chapter.id === id)?.modules ?? [];
const finalBank = content.chapters.find((chapter) => chapter.id === 6)?.questions ?? [];
const BANKS: [string, QuestionContent[]][] = [1, 2, 3, 4].flatMap((id): [string, QuestionContent[]][] => [
  [`chapter ${String(id)}`, content.chapters.find((chapter) => chapter.id === id)?.questions ?? []],
  [`the final's chapter ${String(id)} share`, finalBank.filter((question) => question.chapter === id)],
]);
const CASES = BANKS.flatMap(([name, bank]) => LANGUAGES.map((language) => ({ name, bank, language })));

describe('the question banks', () => {
  it.each(CASES)('$name ($language): the correct answer is rarely the longest option', ({ bank, language }) => {
    expect(longestCorrectShare(bank, language)).toBeLessThanOrEqual(BANK_LIMITS.longestCorrectShare);
  });

  it.each(CASES)('$name ($language): the correct answer is rarely the shortest option', ({ bank, language }) => {
    expect(shortestCorrectShare(bank, language)).toBeLessThanOrEqual(BANK_LIMITS.shortestCorrectShare);
  });

  it.each(CASES)('$name ($language): hedges sit in right and wrong options alike', ({ bank, language }) => {
    const { right, wrong } = hedgesShares(bank, language);
    expect(Math.abs(right - wrong)).toBeLessThanOrEqual(BANK_LIMITS.hedgesGap);
  });

  it.each(CASES)('$name ($language): always picking the longest option fails a quiz', ({ bank, language }) => {
    expect(longestPickerPassChance(bank, language, CHAPTER_QUIZ)).toBeLessThanOrEqual(BANK_LIMITS.longestPickerPass);
  });

  it.each(CASES)('$name ($language): absolutes sit in right and wrong options alike', ({ bank, language }) => {
    const { right, wrong } = absolutesShares(bank, language);
    expect(Math.abs(right - wrong)).toBeLessThanOrEqual(BANK_LIMITS.absolutesGap);
  });

  it.each(CASES)("$name ($language): every question's answer is in its module's text", ({ bank, language }) => {
    expect(unsourcedQuestions(bank, modulesOf, language)).toEqual([]);
  });

  it.each(BANKS)('%s: no stored answer position holds more than its share', (_name, bank) => {
    for (const share of positionShares(bank)) expect(share).toBeLessThanOrEqual(BANK_LIMITS.positionShare);
  });

  it.each(BANKS.filter(([name]) => name.startsWith('chapter')))('%s: holds enough questions', (_name, bank) => {
    expect(bank.length).toBeGreaterThanOrEqual(BANK_LIMITS.chapterBankSize);
  });

  it("never tests a chapter quiz's fact again at the final (their source phrases differ)", () => {
    const quiz = content.chapters.filter((chapter) => chapter.id !== 6).flatMap((chapter) => chapter.questions);
    expect(sameFactPairs(quiz, finalBank)).toEqual([]);
  });

  it("gives the final its own bank: enough per chapter, none of it in a chapter's bank", () => {
    for (const id of [1, 2, 3, 4]) {
      expect(finalBank.filter((question) => question.chapter === id).length).toBeGreaterThanOrEqual(
        BANK_LIMITS.finalShareSize,
      );
    }
    const chapterKeys = new Set(
      content.chapters.filter((chapter) => chapter.id !== 6).flatMap((chapter) => chapter.questions.map((q) => q.key)),
    );
    expect(finalBank.filter((question) => chapterKeys.has(question.key))).toEqual([]);
  });

  it.each(LANGUAGES)('repeats no question, word for word or nearly, across every bank (%s)', (language) => {
    const all = content.chapters.flatMap((chapter) => chapter.questions);
    expect(new Set(all.map((question) => question.key)).size).toBe(all.length);
    expect(similarQuestions(all, language).map((pair) => pair.keys.join(' / '))).toEqual([]);
  });

  it("uses the Spanish glossary's terms, never a rejected variant (content/glossary.es.md)", () => {
    const rejected = readRejectedSpanishTerms();
    expect(rejected.length).toBeGreaterThan(10);
    const found: string[] = [];
    for (const id of [1, 2, 3, 4]) {
      const folder = path.join(CONTENT_DIR, 'course', `chapter-${String(id)}`);
      for (const name of fs.readdirSync(folder).filter((file) => file.endsWith('.es.md'))) {
        for (const term of findRejectedTerms(fs.readFileSync(path.join(folder, name), 'utf8'), rejected)) {
          found.push(`${name}: ${term}`);
        }
      }
    }
    for (const question of content.chapters.flatMap((chapter) => chapter.questions)) {
      const text = [question.es.question, ...question.es.answers, question.es.explanation].join('\n');
      for (const term of findRejectedTerms(text, rejected)) found.push(`${question.key}: ${term}`);
    }
    expect(found).toEqual([]);
  });
});

describe('the bank measures', () => {
  const question = (answers: string[], correct: number): QuestionContent => ({
    key: `q${answers.join('')}`,
    module: '01-x',
    chapter: 1,
    correct,
    en: { question: 'Which?', answers, explanation: 'Because.' },
    es: { question: '¿Cuál?', answers, explanation: 'Porque.' },
  });

  it('counts a longest correct answer only when it is strictly longest', () => {
    expect(longestCorrectShare([question(['long one', 'short'], 0), question(['same', 'four'], 0)], 'en')).toBe(0.5);
  });

  it('gives the longest-picker a sure pass on a bank that always rewards length, and none on one that never does', () => {
    const rewarding = Array.from({ length: 12 }, (_, n) => question([`right answer ${String(n)}`, 'no'], 0));
    const never = Array.from({ length: 12 }, (_, n) => question([`wrong answer ${String(n)}`, 'yes'], 1));
    expect(longestPickerPassChance(rewarding, 'en')).toBeCloseTo(1);
    expect(longestPickerPassChance(never, 'en')).toBe(0);
  });

  it('computes the exact pass chance: 10 of 10 questions, each a fair tie of two, pass at 7 with p = 176/1024', () => {
    const ties = Array.from({ length: 10 }, (_, n) => question([`aa${String(n)}`, `bb${String(n)}`], 0));
    // P(at least 7 of 10 fair coins) = (120 + 45 + 10 + 1) / 1024.
    expect(longestPickerPassChance(ties, 'en')).toBeCloseTo(176 / 1024, 10);
  });

  it('finds a rejected term only as whole words, in any case', () => {
    expect(findRejectedTerms('Toque la Bocina y mire el tráfico.', ['tráfico', 'claxon'])).toEqual(['tráfico']);
    expect(findRejectedTerms('los tráficos de antes', ['tráfico'])).toEqual([]);
  });
});
