import fs from 'node:fs';
import path from 'node:path';
import { CONTENT_DIR, type Language, type ModuleContent, type QuestionContent } from './content-files.ts';

/**
 * Decision 023: does a question bank test reading? The measures the content test holds the banks to
 * (question-banks.test.ts) and `npm run content:stats` prints: how often the correct answer is
 * the longest option, where it is stored, absolutes in right and wrong options, near-duplicate
 * questions, whether each question's answer is in its module's text, and the chance that a
 * student who reads nothing and always picks the longest option passes a quiz.
 */
export const BANK_LIMITS = {
  /** The correct answer is the strictly longest option in at most this share of a bank's questions. */
  longestCorrectShare: 0.3,
  /** ... and the strictly shortest in at most this share. */
  shortestCorrectShare: 0.3,
  /** Hedges (usually, in most states...) in wrong options and in right options differ by at most this. */
  hedgesGap: 0.1,
  /** The always-pick-the-longest student passes a chapter quiz on one try at most this often. */
  longestPickerPass: 0.05,
  /** No stored answer position holds more than this share of the correct answers. */
  positionShare: 0.4,
  /** Absolutes (always, never, only...) in wrong options and in right options differ by at most this. */
  absolutesGap: 0.1,
  /** Two questions whose words overlap this much (Jaccard, words of 3+ letters) are near-duplicates. */
  similarity: 0.6,
  /** A chapter bank holds at least this many questions (three quiz attempts without a repeat, and spare). */
  chapterBankSize: 36,
  /** The final's bank holds at least this many questions per course chapter. */
  finalShareSize: 20,
} as const;

/** The chapter quiz the longest-picker is measured against (the spec's: 10 drawn, 7 to pass). */
export const CHAPTER_QUIZ = { drawn: 10, passMark: 7 } as const;

const ABSOLUTES: Record<Language, RegExp> = {
  en: /\b(always|never|only|every|all|none|nothing|any)\b/i,
  es: /(?<![\p{L}])(siempre|nunca|solo|sólo|solamente|todos?|todas?|cada|ninguno|ninguna|nada|cualquier)(?![\p{L}])/iu,
};

/** Lower case, no accents, no Markdown or punctuation, single spaces: for comparing texts. */
export function normaliseText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}% ]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The share of questions whose correct answer is longer than every other option. */
export function longestCorrectShare(bank: readonly QuestionContent[], language: Language): number {
  const longest = bank.filter((question) => {
    const lengths = question[language].answers.map((answer) => answer.length);
    const correct = lengths[question.correct] ?? 0;
    return lengths.every((length, index) => index === question.correct || length < correct);
  });
  return bank.length === 0 ? 0 : longest.length / bank.length;
}

/** The share of a bank's questions whose correct answer is the strictly shortest option (a cue by length, as much as the longest). */
export function shortestCorrectShare(bank: readonly QuestionContent[], language: Language): number {
  const shortest = bank.filter((question) => {
    const lengths = question[language].answers.map((answer) => answer.length);
    const correct = lengths[question.correct] ?? 0;
    return lengths.every((length, index) => index === question.correct || length > correct);
  });
  return bank.length === 0 ? 0 : shortest.length / bank.length;
}

/** The share of correct answers stored at each position (0-based). */
export function positionShares(bank: readonly QuestionContent[]): number[] {
  const counts: number[] = [];
  for (const question of bank) counts[question.correct] = (counts[question.correct] ?? 0) + 1;
  return Array.from(counts, (count) => (count ?? 0) / Math.max(bank.length, 1));
}

/** Hedges: the cue a student who did not read learns to pick ("in most states" sounds right). */
const HEDGES: Record<Language, RegExp> = {
  en: /\b(usually|often|may|might|in most states|in many states|varies by state|vary by state|generally|typically)\b/i,
  es: /(?<![\p{L}])(por lo general|a menudo|suele|suelen|puede que|en la mayoría de los estados|en muchos estados|varía según el estado|varían según el estado|normalmente)(?![\p{L}])/iu,
};

function cueShares(
  bank: readonly QuestionContent[],
  language: Language,
  cue: RegExp,
): { right: number; wrong: number } {
  const right = bank.map((question) => question[language].answers[question.correct] ?? '');
  const wrong = bank.flatMap((question) => question[language].answers.filter((_, index) => index !== question.correct));
  const share = (texts: string[]) =>
    texts.length === 0 ? 0 : texts.filter((text) => cue.test(text)).length / texts.length;
  return { right: share(right), wrong: share(wrong) };
}

/** The share of right and of wrong options that hold an absolute word. */
export function absolutesShares(
  bank: readonly QuestionContent[],
  language: Language,
): { right: number; wrong: number } {
  return cueShares(bank, language, ABSOLUTES[language]);
}

/** The share of right and of wrong options that hold a hedge. */
export function hedgesShares(bank: readonly QuestionContent[], language: Language): { right: number; wrong: number } {
  return cueShares(bank, language, HEDGES[language]);
}

/** The chance that picking the longest option (a fair pick among ties) answers the question right. */
function longestPickerChance(answers: readonly string[], correct: number): number {
  const longest = Math.max(...answers.map((answer) => answer.length));
  const tied = answers.flatMap((answer, index) => (answer.length === longest ? [index] : []));
  return tied.includes(correct) ? 1 / tied.length : 0;
}

/**
 * The exact chance that a student who always picks the longest option passes a quiz of `drawn`
 * questions drawn at random from the bank: every `drawn`-subset is equally likely, so a dynamic
 * programme over (questions taken, right answers) sums the subsets' chances, divided by their count.
 */
export function longestPickerPassChance(
  bank: readonly QuestionContent[],
  language: Language,
  quiz: { drawn: number; passMark: number } = CHAPTER_QUIZ,
): number {
  const chances = bank.map((question) => longestPickerChance(question[language].answers, question.correct));
  const { drawn, passMark } = quiz;
  if (chances.length < drawn) return 0;
  // ways[k][r]: over the k-subsets of the questions seen so far, the summed chance of r right answers.
  let ways = Array.from({ length: drawn + 1 }, () => new Array<number>(drawn + 1).fill(0));
  ways[0]![0] = 1;
  for (const chance of chances) {
    const next = ways.map((row) => [...row]);
    for (let k = 0; k < drawn; k++) {
      for (let r = 0; r <= k; r++) {
        const current = ways[k]![r]!;
        if (current === 0) continue;
        const row = next[k + 1]!;
        row[r + 1] = (row[r + 1] ?? 0) + current * chance;
        row[r] = (row[r] ?? 0) + current * (1 - chance);
      }
    }
    ways = next;
  }
  let subsets = 1;
  for (let i = 0; i < drawn; i++) subsets = (subsets * (chances.length - i)) / (i + 1);
  const passing = ways[drawn]!.slice(passMark).reduce((sum, value) => sum + value, 0);
  return passing / subsets;
}

function significantWords(text: string): Set<string> {
  return new Set(
    normaliseText(text)
      .split(' ')
      .filter((word) => word.length > 2),
  );
}

/** Pairs of questions (any banks) whose question texts overlap at or past the near-duplicate line. */
export function similarQuestions(
  questions: readonly QuestionContent[],
  language: Language,
  threshold: number = BANK_LIMITS.similarity,
): { keys: [string, string]; overlap: number }[] {
  const words = questions.map((question) => significantWords(question[language].question));
  const pairs: { keys: [string, string]; overlap: number }[] = [];
  for (let a = 0; a < questions.length; a++) {
    for (let b = a + 1; b < questions.length; b++) {
      const x = words[a]!;
      const y = words[b]!;
      const shared = [...x].filter((word) => y.has(word)).length;
      const overlap = shared / (x.size + y.size - shared);
      if (overlap >= threshold) pairs.push({ keys: [questions[a]!.key, questions[b]!.key], overlap });
    }
  }
  return pairs;
}

/**
 * A chapter-quiz question and a final question that test the same fact of the same module, found
 * by their `source` phrases (the module's words that answer them) rather than by the wording of
 * the questions, which a rewrite changes: one phrase holds the other, or they share `threshold`
 * of their words. A student who passed the quiz would otherwise meet the fact again at the final.
 */
export function sameFactPairs(
  quiz: readonly QuestionContent[],
  final: readonly QuestionContent[],
  threshold: number = BANK_LIMITS.similarity,
): [string, string][] {
  const pairs: [string, string][] = [];
  for (const f of final) {
    for (const q of quiz) {
      if (q.chapter !== f.chapter || q.module !== f.module) continue;
      const a = normaliseText(f.source?.en ?? '');
      const b = normaliseText(q.source?.en ?? '');
      if (a === '' || b === '') continue;
      const x = significantWords(a);
      const y = significantWords(b);
      const shared = [...x].filter((word) => y.has(word)).length;
      if (a.includes(b) || b.includes(a) || shared / (x.size + y.size - shared) >= threshold)
        pairs.push([q.key, f.key]);
    }
  }
  return pairs;
}

/**
 * Questions whose `source` phrase (copied from the module to show where the answer is) is
 * missing, too short to mean anything, or not found in the named module's text.
 */
export function unsourcedQuestions(
  bank: readonly QuestionContent[],
  modulesOf: (chapter: number) => readonly ModuleContent[],
  language: Language,
): string[] {
  return bank
    .filter((question) => {
      const phrase = normaliseText(question.source?.[language] ?? '');
      if (phrase.split(' ').length < 4) return true;
      const module = modulesOf(question.chapter).find((candidate) => candidate.fileSlug === question.module);
      if (!module) return true;
      const text = normaliseText(
        module.topics.map((topic) => `${topic.title[language]} ${topic.markdown[language]}`).join(' '),
      );
      return !text.includes(phrase);
    })
    .map((question) => question.key);
}

/** content/glossary.es.md's rejected variants: the last column of its table, comma-separated. */
export function readRejectedSpanishTerms(contentDir = CONTENT_DIR): string[] {
  const text = fs.readFileSync(path.join(contentDir, 'glossary.es.md'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1) // the header row
    .flatMap((line) => (line.split('|').at(-2) ?? '').split(','))
    .map((term) => term.trim())
    .filter((term) => term.length > 0);
}

/** Where a rejected term appears in a text: whole words, any case. */
export function findRejectedTerms(text: string, terms: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return terms.filter((term) => {
    const escaped = term.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(?<![\\p{L}])${escaped}(?![\\p{L}])`, 'u').test(lower);
  });
}
