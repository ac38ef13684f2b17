import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import type { TFunction } from '../../lib/i18n.ts';
import type { ErrorCode, Quiz } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { ApiError, detailsOf } from '../../lib/api.ts';
import { formatDay, formatMoment } from '../../lib/dates.ts';
import { errorText } from '../../lib/error-text.ts';
import { rulesQueries } from './rules-queries.ts';

/**
 * What the pages show of a student's rules profile (decision 012): the quiz instruction
 * from the profile's numbers, the refusals the server gives (no attempts left, a wait, the window
 * closed) and the deadline warning. Under the default profile nothing here changes a page.
 */

const RULES_REFUSALS: readonly (ErrorCode | 'UNKNOWN')[] = [
  'NO_ATTEMPTS_LEFT',
  'ATTEMPT_WAIT',
  'COMPLETION_WINDOW_CLOSED',
];

/** Whether an error is one of the rules' refusals, which the page explains in words of its own. */
export function isRulesRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && RULES_REFUSALS.includes(error.code);
}

/**
 * The words for a rules refusal, in the interface language, or null for any other error: the
 * code's own text (lib/error-text.ts), except that a wait before the final names the final.
 */
export function rulesRefusalText(error: unknown, t: TFunction, options: { final?: boolean } = {}): string | null {
  if (!isRulesRefusal(error)) return null;
  const wait = detailsOf(error, 'ATTEMPT_WAIT');
  if (wait && options.final) return t('rules.attemptWaitFinal', { time: formatMoment(wait.opens_at) });
  return errorText(error, t);
}

/** A refused quiz draw, said in the page's language. */
export function RulesRefusal({ error, final }: { error: ApiError; final: boolean }) {
  const { t } = useTranslation();
  return <Alert tone="info">{rulesRefusalText(error, t, { final })}</Alert>;
}

/**
 * The line above a quiz's questions. Under the spec's numbers it is the spec's sentence, word for
 * word; otherwise it states this quiz's pass mark and questions, and the attempts when limited.
 */
export function QuizInstructions({ quiz }: { quiz: Quiz }) {
  const { t } = useTranslation();
  let text: string;
  if (quiz.specRules) {
    text = t('quiz.instructions');
  } else {
    const attempts =
      quiz.attemptsAllowed === null
        ? t('rules.retakeUnlimited')
        : quiz.attemptsAllowed === 1
          ? t('rules.attemptsOne')
          : t('rules.attemptsMany', { attempts: quiz.attemptsAllowed });
    text = `${t('rules.instructions', { passMark: quiz.passMark, questions: quiz.questionCount })} ${attempts}`;
  }
  return <p className="rounded-md bg-blue-50 p-4 text-slate-800">{text}</p>;
}

/** The signed-in student's rules (GET /api/students/:id/rules); idle without a student id. */
export function useStudentRules(studentId: number | null) {
  // The profile's name comes in the page's language.
  const { i18n } = useTranslation();
  return useQuery({ ...rulesQueries.student(studentId ?? 0, i18n.language), enabled: studentId !== null });
}

/**
 * The home page's notice of the deadline (the completion window or the court's due date): a
 * warning from the profile's warning days on, and the closing once the window has ended.
 * Nothing shows without a deadline (the default profile without a due date).
 */
export function DeadlineNotice({ studentId }: { studentId: number | null }) {
  const { t } = useTranslation();
  const rules = useStudentRules(studentId);
  const data = rules.data;
  if (!data?.deadline) return null;
  if (data.closedOn)
    return <Alert>{t('apiErrors.COMPLETION_WINDOW_CLOSED', { date: formatDay(data.closedOn) })}</Alert>;
  if (!data.deadlineWarning) return null;
  return <Alert tone="info">{t('rules.finishBy', { date: formatDay(data.deadline) })}</Alert>;
}

/**
 * For staff on the student detail page: the court's due date the student gave, and the deadline
 * with whether the window has ended (as definition-list entries; nothing when there is neither).
 */
export function StudentDeadlineField({ studentId, courtDueDate }: { studentId: number; courtDueDate: string | null }) {
  const { t } = useTranslation();
  const rules = useStudentRules(studentId);
  const data = rules.data;
  const entry = (label: string, value: string) => (
    <div>
      <dt className="text-sm font-semibold text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-slate-900">{value}</dd>
    </div>
  );
  return (
    <>
      {courtDueDate && entry(t('rules.adminCourtDueDate'), formatDay(courtDueDate))}
      {data?.deadline &&
        entry(
          t('rules.adminDeadline'),
          data.closedOn ? t('rules.adminWindowClosed', { date: formatDay(data.closedOn) }) : formatDay(data.deadline),
        )}
    </>
  );
}
