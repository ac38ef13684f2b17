import { FINAL_EXAM_CHAPTER } from '@ts/contract';

/**
 * Spec 9: a chapter quiz is 10 questions drawn from the chapter's bank, passed at 7; the final is
 * 20 questions, passed at 14; retakes are unlimited. The rules issue makes these per jurisdiction.
 */
export interface QuizRules {
  questionCount: number;
  passMark: number;
}

export const CHAPTER_QUIZ: QuizRules = { questionCount: 10, passMark: 7 };
export const FINAL_EXAM: QuizRules = { questionCount: 20, passMark: 14 };

export function quizRulesFor(chapterId: number): QuizRules {
  return chapterId === FINAL_EXAM_CHAPTER ? FINAL_EXAM : CHAPTER_QUIZ;
}
