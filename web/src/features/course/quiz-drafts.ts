import { z } from 'zod';
import type { Quiz } from '@ts/contract';

/**
 * A student's answers to an open quiz attempt, kept in the tab's sessionStorage until the
 * attempt is graded (usability pass). Why: after a reload, or a phone's swipe back and forward,
 * the server shows the same open attempt again, but the chosen answers lived only in the page,
 * so up to 20 answers of the final exam were lost, though the home page promises students that
 * they continue where they left off. sessionStorage ends with the tab, so an answer sheet does
 * not outlive the visit on a shared computer.
 *
 * A draft only puts the student's own choices back on the radios; the server alone grades, against
 * the attempt it issued. Stored text is never trusted: malformed JSON is ignored, and only answers
 * whose question and answer ids are in the attempt shown come back.
 *
 * One draft per student and chapter, holding the attempt it belongs to: a draft of another attempt
 * is never restored, and the attempt shown replaces it at its first save (an empty one forgets it).
 */

/** Question id -> the answer id chosen for it. */
export type QuizAnswers = Record<number, number>;

const StoredDraftSchema = z.object({
  attemptId: z.number().int(),
  answers: z.record(z.string(), z.unknown()),
});

function draftKey(studentId: number, chapter: number): string {
  return `quiz-draft:${String(studentId)}:${String(chapter)}`;
}

/** The answers saved for the attempt shown, limited to its own questions and answers; none otherwise. */
export function readQuizDraft(studentId: number, quiz: Pick<Quiz, 'attemptId' | 'chapter' | 'questions'>): QuizAnswers {
  let stored: z.infer<typeof StoredDraftSchema>;
  try {
    const raw = sessionStorage.getItem(draftKey(studentId, quiz.chapter));
    if (raw === null) return {};
    const parsed = StoredDraftSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) return {};
    stored = parsed.data;
  } catch {
    // Not JSON, or storage the browser refuses (private mode): no draft, the quiz works as before.
    return {};
  }
  if (stored.attemptId !== quiz.attemptId) return {};
  const answers: QuizAnswers = {};
  for (const question of quiz.questions) {
    const chosen = stored.answers[String(question.id)];
    if (typeof chosen === 'number' && question.answers.some((answer) => answer.id === chosen)) {
      answers[question.id] = chosen;
    }
  }
  return answers;
}

/** Keeps the answers chosen so far for the attempt shown; with none chosen, nothing is kept. */
export function saveQuizDraft(
  studentId: number,
  quiz: Pick<Quiz, 'attemptId' | 'chapter'>,
  answers: QuizAnswers,
): void {
  if (Object.keys(answers).length === 0) {
    forgetQuizDraft(studentId, quiz.chapter);
    return;
  }
  try {
    sessionStorage.setItem(draftKey(studentId, quiz.chapter), JSON.stringify({ attemptId: quiz.attemptId, answers }));
  } catch {
    // Storage full or refused: the answers stay on the page, only a reload would lose them.
  }
}

/** Drops the chapter's draft: its attempt was graded. */
export function forgetQuizDraft(studentId: number, chapter: number): void {
  try {
    sessionStorage.removeItem(draftKey(studentId, chapter));
  } catch {
    // Storage refused: there is no draft to forget.
  }
}
