import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface QuestionFile {
  correct: number;
  en: { question: string; answers: string[] };
}

const CONTENT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'content', 'course');

/**
 * The answer key as the course files hold it: question text -> correct answer text. A test
 * answers the way a student who read the chapter would.
 */
export function answerKey(): Map<string, string> {
  const key = new Map<string, string>();
  for (const chapter of [1, 2, 3, 4]) {
    const file = path.join(CONTENT, `chapter-${String(chapter)}`, 'questions.json');
    for (const question of JSON.parse(fs.readFileSync(file, 'utf8')) as QuestionFile[]) {
      key.set(question.en.question, question.en.answers[question.correct] ?? '');
    }
  }
  return key;
}
