/**
 * Decision 023: how much the question banks reward not reading, per bank and language, against the
 * limits the content test holds them to (server/src/db/bank-quality.ts says what each measures).
 * Run: `npm run content:stats`.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  BANK_LIMITS,
  absolutesShares,
  hedgesShares,
  findRejectedTerms,
  longestCorrectShare,
  shortestCorrectShare,
  longestPickerPassChance,
  positionShares,
  readRejectedSpanishTerms,
  similarQuestions,
  unsourcedQuestions,
} from '../server/src/db/bank-quality.ts';
import {
  CONTENT_DIR,
  COURSE_WORD_FLOOR,
  courseWords,
  LANGUAGES,
  moduleWords,
  readCourseContent,
} from '../server/src/db/content-files.ts';

const content = readCourseContent();
const modulesOf = (id: number) => content.chapters.find((chapter) => chapter.id === id)?.modules ?? [];
const percent = (share: number) => `${(100 * share).toFixed(0)}%`;
const finalBank = content.chapters.find((chapter) => chapter.id === 6)?.questions ?? [];
const banks = [
  ...[1, 2, 3, 4].map((id) => ({
    name: `chapter ${String(id)}`,
    questions: content.chapters.find((chapter) => chapter.id === id)?.questions ?? [],
  })),
  ...[1, 2, 3, 4].map((id) => ({
    name: `final, ch ${String(id)}`,
    questions: finalBank.filter((question) => question.chapter === id),
  })),
];

// The course's length as California counts it (content-files.ts): per module, chapter and language.
console.table(
  content.chapters.flatMap((chapter) =>
    chapter.modules.map((module) => ({
      module: module.key,
      en: moduleWords(module, 'en'),
      es: moduleWords(module, 'es'),
      minutesEn: Math.round(moduleWords(module, 'en') / 200),
    })),
  ),
);
console.table(
  content.chapters
    .filter((chapter) => chapter.modules.length > 0)
    .map((chapter) => ({
      chapter: chapter.id,
      modules: chapter.modules.length,
      en: chapter.modules.reduce((sum, module) => sum + moduleWords(module, 'en'), 0),
      es: chapter.modules.reduce((sum, module) => sum + moduleWords(module, 'es'), 0),
      quizQuestions: chapter.questions.length,
      finalQuestions: finalBank.filter((question) => question.chapter === chapter.id).length,
    })),
);
for (const language of LANGUAGES) {
  console.log(
    `Course text (${language}): ${String(courseWords(content, language))} words (floor ${String(COURSE_WORD_FLOOR)}); the final's bank: ${String(finalBank.length)} questions, longest correct ${percent(longestCorrectShare(finalBank, language))}, shortest correct ${percent(shortestCorrectShare(finalBank, language))}`,
  );
}

/** Flesch-Kincaid grade of English text (syllables counted as vowel groups, a rough and usual estimate). */
function fleschKincaidGrade(text: string): number {
  const plain = text.replace(/[#*_>`-]/g, ' ');
  const sentences = Math.max(1, plain.split(/[.!?:]+\s/).filter((sentence) => /[a-z]/i.test(sentence)).length);
  const wordList = plain.split(/\s+/).filter((word) => /[a-z]/i.test(word));
  const syllables = wordList.reduce((sum, word) => {
    const letters = word
      .toLowerCase()
      .replace(/[^a-z]/g, '')
      .replace(/e$/, '');
    return sum + Math.max(1, (letters.match(/[aeiouy]+/g) ?? []).length);
  }, 0);
  return 0.39 * (wordList.length / sentences) + 11.8 * (syllables / Math.max(1, wordList.length)) - 15.59;
}
const englishText = content.chapters
  .flatMap((chapter) => chapter.modules.flatMap((module) => module.topics.map((topic) => topic.markdown.en)))
  .join('\n');
console.log(
  `Reading level of the course text (en, Flesch-Kincaid grade): ${fleschKincaidGrade(englishText).toFixed(1)}`,
);

// The state editions: what each adds to the course its students are served.
console.table(
  content.editions.map((edition) => {
    const modules = edition.chapters.flatMap((chapter) => chapter.modules);
    const questions = edition.chapters.flatMap((chapter) => [...chapter.questions, ...chapter.finalQuestions]);
    return {
      edition: edition.id,
      modules: modules.length,
      en: modules.reduce((sum, module) => sum + moduleWords(module, 'en'), 0),
      es: modules.reduce((sum, module) => sum + moduleWords(module, 'es'), 0),
      courseEn: courseWords(content, 'en') + modules.reduce((sum, module) => sum + moduleWords(module, 'en'), 0),
      courseEs: courseWords(content, 'es') + modules.reduce((sum, module) => sum + moduleWords(module, 'es'), 0),
      quizQuestions: edition.chapters.reduce((sum, chapter) => sum + chapter.questions.length, 0),
      finalQuestions: edition.chapters.reduce((sum, chapter) => sum + chapter.finalQuestions.length, 0),
      longestCorrectEn: percent(longestCorrectShare(questions, 'en')),
      shortestCorrectEn: percent(shortestCorrectShare(questions, 'en')),
    };
  }),
);

const rows = banks.flatMap(({ name, questions }) =>
  LANGUAGES.map((language) => {
    const absolutes = absolutesShares(questions, language);
    const hedges = hedgesShares(questions, language);
    return {
      bank: name,
      language,
      questions: questions.length,
      fourOptions: questions.filter((question) => question[language].answers.length === 4).length,
      longestCorrect: percent(longestCorrectShare(questions, language)),
      shortestCorrect: percent(shortestCorrectShare(questions, language)),
      positions: positionShares(questions)
        .map((share, index) => `${String(index + 1)}:${percent(share)}`)
        .join(' '),
      absolutesRight: percent(absolutes.right),
      absolutesWrong: percent(absolutes.wrong),
      hedgesRight: percent(hedges.right),
      hedgesWrong: percent(hedges.wrong),
      longestPickerPasses: percent(longestPickerPassChance(questions, language)),
      unsourced: unsourcedQuestions(questions, modulesOf, language).length,
    };
  }),
);
console.table(rows);
console.log(
  `Limits: longest correct <= ${percent(BANK_LIMITS.longestCorrectShare)}, shortest correct <= ${percent(BANK_LIMITS.shortestCorrectShare)}, hedges gap <= ${percent(BANK_LIMITS.hedgesGap)}, longest-picker passes a chapter quiz <= ${percent(BANK_LIMITS.longestPickerPass)}, no position > ${percent(BANK_LIMITS.positionShare)}, absolutes gap <= ${percent(BANK_LIMITS.absolutesGap)}, chapter bank >= ${String(BANK_LIMITS.chapterBankSize)}, final >= ${String(BANK_LIMITS.finalShareSize)} per chapter, every question sourced.`,
);
for (const language of LANGUAGES) {
  console.log(
    `The longest-picker passes the final (${language}, 20 drawn, 14 to pass): ${percent(longestPickerPassChance(finalBank, language, { drawn: 20, passMark: 14 }))}`,
  );
}

const all = content.chapters.flatMap((chapter) => chapter.questions);
for (const language of LANGUAGES) {
  const pairs = similarQuestions(all, language);
  console.log(
    `Near-duplicates (${language}, word overlap >= ${String(BANK_LIMITS.similarity)}): ${pairs.length === 0 ? 'none' : pairs.map((pair) => `${pair.keys.join('/')} (${pair.overlap.toFixed(2)})`).join(', ')}`,
  );
  const unsourced = all.filter((question) => unsourcedQuestions([question], modulesOf, language).length > 0);
  if (unsourced.length > 0) {
    console.log(`Unsourced (${language}): ${unsourced.map((question) => question.key).join(', ')}`);
  }
}

const rejected = readRejectedSpanishTerms();
const spanishFiles = [1, 2, 3, 4].flatMap((id) => {
  const folder = path.join(CONTENT_DIR, 'course', `chapter-${String(id)}`);
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.es.md') || name.endsWith('questions.json'))
    .map((name) => path.join(folder, name));
});
for (const file of spanishFiles) {
  const text = file.endsWith('.json')
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { es: unknown; source?: { es: string } }[])
        .map((question) => JSON.stringify([question.es, question.source?.es ?? '']))
        .join('\n')
    : fs.readFileSync(file, 'utf8');
  const found = findRejectedTerms(text, rejected);
  if (found.length > 0) console.log(`Glossary (${path.relative(CONTENT_DIR, file)}): ${found.join(', ')}`);
}
