import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { type ErrorCode, type Quiz, rulesApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import i18n from '../../lib/i18n.ts';

/**
 * What the pages show of a student's rules profile (issue 8, decision 012): the quiz instruction
 * from the profile's numbers, the refusals the server gives (no attempts left, a wait, the window
 * closed) and the deadline warning. Under the default profile nothing here changes a page.
 */

const localeOf = (language: string) => (language.startsWith('es') ? 'es-US' : 'en-US');

/** A calendar day (YYYY-MM-DD) written out in the interface language: "January 30, 2027". */
export function formatDay(isoDate: string, language: string = i18n.language): string {
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString(localeOf(language), {
    dateStyle: 'long',
    timeZone: 'UTC',
  });
}

/** A moment (ISO) as a date and time on the student's own clock: "Jan 23, 2027, 10:00 AM". */
export function formatMoment(iso: string, language: string = i18n.language): string {
  return new Date(iso).toLocaleString(localeOf(language), { dateStyle: 'medium', timeStyle: 'short' });
}

const RULES_REFUSALS: readonly (ErrorCode | 'UNKNOWN')[] = [
  'NO_ATTEMPTS_LEFT',
  'ATTEMPT_WAIT',
  'COMPLETION_WINDOW_CLOSED',
];

/** Whether an error is one of the rules' refusals, which the page explains in words of its own. */
export function isRulesRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && RULES_REFUSALS.includes(error.code);
}

/** The words for a rules refusal, in the interface language, or null for any other error. */
export function rulesRefusalText(error: unknown, t: TFunction, options: { final?: boolean } = {}): string | null {
  if (!isRulesRefusal(error)) return null;
  const details = error.details;
  if (error.code === 'NO_ATTEMPTS_LEFT' && typeof details.attempts === 'number') {
    return t('rules.noAttemptsLeft', { attempts: details.attempts });
  }
  if (error.code === 'ATTEMPT_WAIT' && typeof details.opens_at === 'string') {
    return t(options.final ? 'rules.attemptWaitFinal' : 'rules.attemptWait', { time: formatMoment(details.opens_at) });
  }
  if (error.code === 'COMPLETION_WINDOW_CLOSED' && typeof details.ended_on === 'string') {
    return t('rules.windowClosed', { date: formatDay(details.ended_on) });
  }
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
  return useQuery({
    queryKey: ['student-rules', studentId],
    queryFn: () => callApi(rulesApi.studentRules, { params: { id: studentId ?? 0 } }),
    enabled: studentId !== null,
    retry: false,
  });
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
  if (data.closedOn) return <Alert>{t('rules.windowClosed', { date: formatDay(data.closedOn) })}</Alert>;
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
