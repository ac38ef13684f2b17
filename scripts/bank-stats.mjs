#!/usr/bin/env node
/**
 * Issue 17: how much the question banks reward not reading. Per chapter and language: questions,
 * the share whose correct answer is the strictly longest option (chance is about 1 in the number
 * of options), the correct answer's stored position, absolutes (always, never, only, every...) in
 * right and wrong options, exact duplicate questions across chapters, and the chance that a
 * student who reads nothing and always picks the longest option passes a chapter quiz on one try
 * (10 drawn, 7 to pass; Monte Carlo). Run: `node scripts/bank-stats.mjs` (or `npm run content:stats`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const COURSE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'content', 'course');
const ABSOLUTES = {
  en: /\b(always|never|only|every|all|none|nothing|any)\b/i,
  es: /\b(siempre|nunca|solo|sólo|solamente|todos?|todas?|cada|ninguno|ninguna|nada|cualquier)\b/i,
};
const QUIZ = { drawn: 10, passMark: 7 };
const TRIALS = 100_000;

const normalise = (text) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N} ]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The chance the longest-option student gets a question right: 1 / (options tied for longest) if the correct one is among them. */
function longestPickerChance(answers, correct) {
  const longest = Math.max(...answers.map((answer) => answer.length));
  const tied = answers.map((answer, index) => [answer, index]).filter(([answer]) => answer.length === longest);
  return tied.some(([, index]) => index === correct) ? 1 / tied.length : 0;
}

function passChance(chances) {
  let passes = 0;
  for (let trial = 0; trial < TRIALS; trial += 1) {
    const pool = [...chances];
    let right = 0;
    for (let drawn = 0; drawn < QUIZ.drawn && pool.length > 0; drawn += 1) {
      const [chance] = pool.splice(Math.floor(Math.random() * pool.length), 1);
      if (Math.random() < chance) right += 1;
    }
    if (right >= QUIZ.passMark) passes += 1;
  }
  return passes / TRIALS;
}

const percent = (share) => `${(100 * share).toFixed(0)}%`;
const seen = new Map();
const rows = [];
for (const chapter of [1, 2, 3, 4]) {
  const bank = JSON.parse(fs.readFileSync(path.join(COURSE, `chapter-${String(chapter)}`, 'questions.json'), 'utf8'));
  for (const language of ['en', 'es']) {
    const strictlyLongest = bank.filter((question) => {
      const answers = question[language].answers;
      const lengths = answers.map((answer) => answer.length);
      return lengths.every((length, index) => index === question.correct || length < lengths[question.correct]);
    }).length;
    const positions = new Map();
    for (const question of bank) positions.set(question.correct, (positions.get(question.correct) ?? 0) + 1);
    const right = bank.map((question) => question[language].answers[question.correct]);
    const wrong = bank.flatMap((question) =>
      question[language].answers.filter((_, index) => index !== question.correct),
    );
    const absoluteShare = (texts) => texts.filter((text) => ABSOLUTES[language].test(text)).length / texts.length;
    if (language === 'en') {
      for (const question of bank) {
        const key = normalise(question.en.question);
        seen.set(key, [...(seen.get(key) ?? []), question.key]);
      }
    }
    rows.push({
      chapter,
      language,
      questions: bank.length,
      longestCorrect: percent(strictlyLongest / bank.length),
      positions: [...positions.entries()]
        .sort(([a], [b]) => a - b)
        .map(([position, n]) => `${String(position + 1)}:${String(n)}`)
        .join(' '),
      absolutesRight: percent(absoluteShare(right)),
      absolutesWrong: percent(absoluteShare(wrong)),
      longestPickerPasses: percent(
        passChance(bank.map((question) => longestPickerChance(question[language].answers, question.correct))),
      ),
    });
  }
}
console.table(rows);
const duplicates = [...seen.values()].filter((keys) => keys.length > 1);
console.log(
  `Word-for-word duplicate questions: ${duplicates.length === 0 ? 'none' : duplicates.map((keys) => keys.join(' = ')).join(', ')}`,
);

// Near-duplicates: the question's words (in English) overlapping by 60% or more (Jaccard).
const all = [1, 2, 3, 4].flatMap((chapter) =>
  JSON.parse(fs.readFileSync(path.join(COURSE, `chapter-${String(chapter)}`, 'questions.json'), 'utf8')),
);
const words = (text) =>
  new Set(
    normalise(text)
      .split(' ')
      .filter((word) => word.length > 2),
  );
const similar = [];
for (let a = 0; a < all.length; a += 1) {
  for (let b = a + 1; b < all.length; b += 1) {
    const x = words(all[a].en.question);
    const y = words(all[b].en.question);
    const shared = [...x].filter((word) => y.has(word)).length;
    const jaccard = shared / (x.size + y.size - shared);
    if (jaccard >= 0.6) similar.push(`${all[a].key}/${all[b].key} (${jaccard.toFixed(2)})`);
  }
}
console.log(`Near-duplicate questions (word overlap >= 0.6): ${similar.length === 0 ? 'none' : similar.join(', ')}`);
