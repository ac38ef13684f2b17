import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../components/alert.tsx';
import { ApiError, gotNoAnswerFromApi, shouldSignOutAfter } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { type TFunction, useTranslation } from '../../lib/i18n.ts';
import { isRulesRefusal, RulesRefusal, rulesRefusalText } from '../rules/rules-messages.tsx';
import { identityHoldText, isIdentityHold } from './identity-check.tsx';
import { QuizSeatTimeRefusal, seatTimeRefusal } from './seat-time.tsx';

/** One of the spec's messages on the quiz page, with anything that helps below it. */
export function QuizMessage({
  text,
  values,
  children,
}: {
  text: string;
  values?: Record<string, unknown>;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="space-y-4">
      <Alert tone="info">{t(text, values)}</Alert>
      {children}
    </div>
  );
}

/**
 * The course order's refusals of a draw, in the page's words, and whether the way back to the
 * chapter is offered: the final before chapters 1 to 4, a quiz before its chapter's modules, a
 * chapter before the one it follows.
 */
const COURSE_ORDER_REFUSALS: Partial<Record<ApiError['code'], { text: string; backToChapter: boolean }>> = {
  CHAPTERS_INCOMPLETE: { text: 'quiz.finalLocked', backToChapter: false },
  MODULES_INCOMPLETE: { text: 'quiz.modulesIncomplete', backToChapter: true },
  CHAPTER_LOCKED: { text: 'quiz.chapterLocked', backToChapter: true },
};

/**
 * What the quiz page shows instead of a quiz the server would not draw, or null for any other
 * error. Under decision 012: the seat time still required, an identity check or lock (its
 * dialog asks the question, and the quiz is drawn again once it is answered), a rules profile's
 * refusal (no attempts left, a wait after a failed attempt, the window closed); then the
 * course order's refusals.
 */
export function drawRefusal(error: unknown, chapterId: number, final: boolean, t: TFunction): ReactNode | null {
  const seatTimeRemaining = seatTimeRefusal(error);
  if (seatTimeRemaining !== null) {
    return <QuizSeatTimeRefusal chapterId={chapterId} remainingSeconds={seatTimeRemaining} />;
  }
  if (isIdentityHold(error)) {
    return (
      <Alert tone="info">{t(error.code === 'COURSE_LOCKED' ? 'identity.lockedShort' : 'identity.quizWaits')}</Alert>
    );
  }
  if (isRulesRefusal(error)) return <RulesRefusal error={error} final={final} />;
  const message = error instanceof ApiError ? COURSE_ORDER_REFUSALS[error.code] : undefined;
  if (!message) return null;
  return (
    <QuizMessage text={message.text}>
      {message.backToChapter && (
        <Link to={`/content/${String(chapterId)}`} className="font-semibold text-blue-800 underline">
          {t('course.backToChapter', { number: chapterId })}
        </Link>
      )}
    </QuizMessage>
  );
}

/**
 * What a refused submission says (the answers stay on the page for a second try), and whether it
 * signs the student out. An identity check or lock holds it, or the completion window closed while
 * the quiz was open (decision 012). Otherwise spec 8: a failed quiz submission removes the stored
 * user, with no redirect at once; not when it got no answer (a reload aborted it): the student is
 * still signed in and may try again. "Sign in again" only when that is so: a refusal of the
 * submission itself (the attempt was already graded, from another tab or a second click) says
 * what it was.
 */
export function submitRefusal(error: unknown, t: TFunction, final: boolean): { text: string; signsOut: boolean } {
  const held = identityHoldText(error, t) ?? rulesRefusalText(error, t, { final });
  if (held !== null) return { text: held, signsOut: false };
  const signsOut = shouldSignOutAfter(error);
  const text = gotNoAnswerFromApi(error)
    ? t('quiz.submitNoAnswer')
    : signsOut || !(error instanceof ApiError)
      ? t('quiz.submitError')
      : errorText(error, t);
  return { text, signsOut };
}
