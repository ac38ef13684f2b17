import { FINAL_EXAM_CHAPTER, type RulesProfile } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../plugins/errors.ts';
import { listSubmittedAttemptsAt } from './quiz.queries.ts';
import { countExtraAttempts } from '../rules/exceptions.queries.ts';

/**
 * The limits of one quiz (or of the final, chapter 6) under a student's rules profile (decision
 * 012). Under the default profile these are spec 9's: a chapter quiz is 10 questions passed at 7,
 * the final 20 passed at 14, retakes unlimited and at once.
 */
export interface QuizRules {
  questionCount: number;
  passMark: number;
  /** Attempts allowed in all; null is unlimited. */
  attempts: number | null;
  /** Minutes to wait after a failed attempt before the next draw. */
  waitMinutes: number;
}

export function quizRulesFor(rules: RulesProfile, chapterId: number): QuizRules {
  const limits = chapterId === FINAL_EXAM_CHAPTER ? rules.quizzes.final : rules.quizzes.chapter;
  return {
    questionCount: limits.questions,
    passMark: limits.passMark,
    attempts: limits.attempts,
    waitMinutes: limits.waitMinutes,
  };
}

/** Spec 9's numbers, which the quiz page's own instruction sentence states. */
const SPEC_CHAPTER = { questions: 10, passMark: 7, attempts: null };
const SPEC_FINAL = { questions: 20, passMark: 14, attempts: null };

const sameAs = (limits: RulesProfile['quizzes']['chapter'], spec: typeof SPEC_CHAPTER) =>
  limits.questions === spec.questions && limits.passMark === spec.passMark && limits.attempts === spec.attempts;

/** Whether a profile's quizzes are the spec's (so the page may say "7 out of 10 (final: 14 out of 20)"). */
export function hasSpecQuizRules(rules: RulesProfile): boolean {
  return sameAs(rules.quizzes.chapter, SPEC_CHAPTER) && sameAs(rules.quizzes.final, SPEC_FINAL);
}

const MINUTE = 60_000;

/**
 * The attempts a student has at a quiz: the profile's, plus any an admin granted;
 * null is unlimited (nothing is read).
 */
export async function attemptsAllowedFor(
  db: Db,
  input: { studentId: number; chapterId: number; rules: QuizRules },
): Promise<number | null> {
  if (input.rules.attempts === null) return null;
  return input.rules.attempts + (await countExtraAttempts(db, input));
}

/** "15 minutes", "1 minute", "24 hours": how long until a quiz opens again, rounded up. */
function describeWait(milliseconds: number): string {
  const minutes = Math.max(1, Math.ceil(milliseconds / MINUTE));
  if (minutes < 120) return `${String(minutes)} ${minutes === 1 ? 'minute' : 'minutes'}`;
  return `${String(Math.ceil(minutes / 60))} hours`;
}

/**
 * Before a new attempt is drawn (decision 012): refused 409 NO_ATTEMPTS_LEFT once every attempt
 * the profile allows was used (a student who passed never gets here), and 409 ATTEMPT_WAIT, with
 * the moment it opens, while the wait after the last failed attempt runs. Under the default
 * profile (unlimited, no wait) nothing is read.
 */
export async function assertAttemptAllowed(
  db: Db,
  clock: Clock,
  input: { studentId: number; chapterId: number; rules: QuizRules },
): Promise<void> {
  const { rules } = input;
  if (rules.attempts === null && rules.waitMinutes === 0) return;
  const submitted = await listSubmittedAttemptsAt(db, input);
  const allowed = await attemptsAllowedFor(db, input);
  if (allowed !== null && submitted.length >= allowed) {
    throw new AppError(
      'NO_ATTEMPTS_LEFT',
      `You have used all ${String(allowed)} attempts allowed for this exam. Please contact the school.`,
      { attempts: allowed },
    );
  }
  const last = submitted[0];
  if (rules.waitMinutes > 0 && last?.submittedAt && last.passed === false) {
    const opensAt = new Date(last.submittedAt.getTime() + rules.waitMinutes * MINUTE);
    const now = clock.now();
    if (now < opensAt) {
      throw new AppError(
        'ATTEMPT_WAIT',
        `You can take this ${input.chapterId === FINAL_EXAM_CHAPTER ? 'exam' : 'quiz'} again in ${describeWait(opensAt.getTime() - now.getTime())}.`,
        { opens_at: opensAt.toISOString() },
      );
    }
  }
}
