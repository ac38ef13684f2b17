import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import type { TFunction } from '../../lib/i18n.ts';
import { type IdentityCheckState, type OpenIdentityCheck, identityChecksApi } from '@ts/contract';
import { Button } from '../../components/button.tsx';
import { Dialog, DialogActions } from '../../components/dialog.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { usePublicConfig } from '../../lib/queries.ts';
import { useStoredUser } from '../../lib/session.ts';
import { formatMoment } from '../../lib/dates.ts';
import { useStudentRules } from '../rules/rules-messages.tsx';
import { courseQueries } from './course-queries.ts';

/**
 * Identity checks (decision 012). The server asks a question of the student's own record
 * at random moments of counted study time and before the final exam; while one waits, course calls
 * answer 409 IDENTITY_CHECK_PENDING, and after missed checks 423 COURSE_LOCKED. The student layout
 * mounts the dialog; course pages hand it the refusals they get. Under a profile without identity
 * checks nothing is polled and nothing shows.
 */

/** How often an open course page asks whether a check is due (when the profile has checks). */
export const IDENTITY_POLL_MS = 60_000;

/** A refusal that an identity check (409), a course lock (423) or unanswered personal questions (409) explain. */
export function isIdentityHold(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    (error.code === 'IDENTITY_CHECK_PENDING' ||
      error.code === 'COURSE_LOCKED' ||
      error.code === 'PERSONAL_QUESTIONS_REQUIRED')
  );
}

/** The page's own words for such a refusal, or null for any other error. */
export function identityHoldText(error: unknown, t: TFunction): string | null {
  if (!isIdentityHold(error)) return null;
  if (error.code === 'PERSONAL_QUESTIONS_REQUIRED') return t('personalQuestions.required');
  return error.code === 'COURSE_LOCKED' ? t('identity.lockedShort') : t('identity.answerFirst');
}

/**
 * Asks the server for the student's identity check, which it then asks if one is due: the dialog
 * opens with the answer. With `unlessShown`, nothing is asked while a question or a lock is
 * already on screen (a heartbeat says a check is due every time until it is answered).
 */
function useAskIdentityCheck(): (options?: { unlessShown?: boolean }) => void {
  const queryClient = useQueryClient();
  const studentId = useStoredUser()?.id ?? 0;
  return useCallback(
    (options = {}) => {
      if (studentId === 0) return;
      const shown = queryClient.getQueryData(courseQueries.identityCheck(studentId).queryKey);
      if (options.unlessShown && (shown?.check || shown?.locked)) return;
      void queryClient.fetchQuery({ ...courseQueries.identityCheck(studentId), staleTime: 0 }).catch(() => undefined);
    },
    [queryClient, studentId],
  );
}

/** For the module page's heartbeat: when the server says a check is due, the dialog asks it now. */
export function useIdentityCheckDue(): () => void {
  const ask = useAskIdentityCheck();
  return useCallback(() => ask({ unlessShown: true }), [ask]);
}

/**
 * For course pages: given an error, opens the identity dialog when the error is an identity
 * refusal (by fetching the check, which the server then asks) and says whether it was one.
 */
export function useIdentityHold(): (error: unknown) => boolean {
  const ask = useAskIdentityCheck();
  const queryClient = useQueryClient();
  const studentId = useStoredUser()?.id ?? 0;
  return useCallback(
    (error: unknown) => {
      if (!isIdentityHold(error)) return false;
      // The gate (personal-questions.tsx) reads the answer again and sends the student to set them.
      if (error.code === 'PERSONAL_QUESTIONS_REQUIRED') {
        void queryClient.invalidateQueries({ queryKey: courseQueries.personalQuestions(studentId).queryKey });
      } else ask();
      return true;
    },
    [ask, queryClient, studentId],
  );
}

const COURSE_PAGE = /^\/(content|quiz|final)/;

/**
 * The student's identity check state: polled every minute under a profile with identity checks
 * (or, when the profile cannot be read, while a course page is open); otherwise filled only when
 * a page hands over a refusal.
 */
function useIdentityState(studentId: number | null) {
  const rules = useStudentRules(studentId);
  const { pathname } = useLocation();
  const polling =
    studentId !== null &&
    (rules.data?.identityChecks.enabled === true || (rules.isError && COURSE_PAGE.test(pathname)));
  return useQuery({
    ...courseQueries.identityCheck(studentId ?? 0),
    enabled: polling,
    // Not while locked: the lock message, once closed, stays closed until a page is refused again.
    refetchInterval: (query) => (polling && !query.state.data?.locked ? IDENTITY_POLL_MS : false),
  });
}

/** "1:23": minutes and seconds. */
function clockText(seconds: number): string {
  return `${String(Math.floor(seconds / 60))}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Seconds left on a check, counting down on the student's clock from what the server said. */
function useSecondsLeft(check: OpenIdentityCheck, receivedAt: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    // Twice a second, so the shown second changes close to when it should.
    const timer = window.setInterval(() => setNow(Date.now()), 500);
    return () => window.clearInterval(timer);
  }, []);
  const deadline = receivedAt + check.seconds_left * 1000;
  return Math.max(0, Math.ceil((deadline - Math.max(now, receivedAt)) / 1000));
}

type Notice = 'wrong' | 'missed' | 'timedOut' | 'error' | null;

/** The identity dialog of the student area: the question, or why the course is locked. */
export function IdentityCheckDialog() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useStoredUser();
  const studentId = user?.type === 'student' && user.payment_at ? user.id : null;
  const state = useIdentityState(studentId);
  const [notice, setNotice] = useState<Notice>(null);
  // A lock message closed by the student stays closed until a page is refused again.
  const [dismissedAt, setDismissedAt] = useState(0);

  const check = state.data?.check ?? null;
  const locked = state.data?.locked ?? null;
  const view: 'question' | 'locked' | 'missed' | null = check
    ? 'question'
    : locked
      ? state.dataUpdatedAt > dismissedAt
        ? 'locked'
        : null
      : notice === 'missed' || notice === 'timedOut'
        ? 'missed'
        : null;

  function settle(next: IdentityCheckState) {
    if (studentId !== null) queryClient.setQueryData(courseQueries.identityCheck(studentId).queryKey, next);
  }

  function close() {
    setNotice(null);
    setDismissedAt(Date.now());
  }

  return (
    <Dialog
      open={view !== null}
      title={view === 'locked' ? t('identity.lockedTitle') : t('identity.title')}
      onClose={close}
      // A question must be answered: Escape does not close it.
      dismissible={view !== 'question'}
    >
      {view === 'question' && check && studentId !== null && (
        <QuestionForm
          key={check.id}
          studentId={studentId}
          check={check}
          receivedAt={state.dataUpdatedAt}
          notice={notice}
          onAnswered={(outcome, next) => {
            settle(next);
            if (outcome === 'passed') {
              setNotice(null);
              // A quiz refused for the check is drawn again now.
              void queryClient.invalidateQueries({ queryKey: courseQueries.allQuizzes() });
            } else if (next.check) setNotice('wrong');
            else setNotice(outcome === 'timed_out' ? 'timedOut' : 'missed');
          }}
          onTimeUp={() => {
            setNotice('timedOut');
            // The server marks the question timed out when asked again (and may lock the course).
            void state.refetch();
          }}
          onError={() => {
            setNotice('error');
            void state.refetch();
          }}
        />
      )}
      {view === 'locked' && locked && <LockedMessage until={locked.until} onClose={close} />}
      {view === 'missed' && (
        <>
          <p>{notice === 'timedOut' ? t('identity.timedOut') : t('identity.missed')}</p>
          <p>{t('identity.missedNote')}</p>
          <DialogActions>
            <Button onClick={close}>{t('identity.continue')}</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

/** The question a check asks: of the record, or one of the student's personal questions (`personal.<key>`). */
function questionText(questionKey: string, t: TFunction): string {
  if (questionKey.startsWith('personal.'))
    return t(`personalQuestions.question.${questionKey.slice('personal.'.length)}`);
  return t(`identity.question.${questionKey}`);
}

/** Said to screen readers as time runs short (the visible countdown itself is not read out each second). */
const ANNOUNCED_AT = [60, 30, 10];
/** From here the page warns on screen, and screen readers hear it at the mark (decision 050). */
const HURRY_SECONDS = 30;

function QuestionForm({
  studentId,
  check,
  receivedAt,
  notice,
  onAnswered,
  onTimeUp,
  onError,
}: {
  studentId: number;
  check: OpenIdentityCheck;
  receivedAt: number;
  notice: Notice;
  onAnswered: (outcome: 'passed' | 'wrong' | 'timed_out', next: IdentityCheckState) => void;
  onTimeUp: () => void;
  onError: () => void;
}) {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState('');
  const [missing, setMissing] = useState(false);
  const [sending, setSending] = useState(false);
  const secondsLeft = useSecondsLeft(check, receivedAt);
  const inputId = useId();
  const introId = useId();
  const errorId = useId();
  const timeUpSent = useRef(false);
  // Screen readers hear the time left at a few marks only; the text stays until the next mark.
  const [announcement, setAnnouncement] = useState('');
  const mark = !ANNOUNCED_AT.includes(secondsLeft)
    ? null
    : secondsLeft === HURRY_SECONDS
      ? t('identity.hurry')
      : t('identity.timeLeft', { time: clockText(secondsLeft) });
  const hurry = secondsLeft > 0 && secondsLeft <= HURRY_SECONDS;
  if (mark !== null && mark !== announcement) setAnnouncement(mark);

  useEffect(() => {
    if (secondsLeft === 0 && !timeUpSent.current) {
      timeUpSent.current = true;
      onTimeUp();
    }
  }, [secondsLeft, onTimeUp]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (answer.trim() === '') {
      setMissing(true);
      return;
    }
    setSending(true);
    try {
      const result = await callApi(identityChecksApi.answer, {
        params: { id: studentId, checkId: check.id },
        body: { answer },
      });
      onAnswered(result.outcome, result.next);
    } catch {
      onError();
    } finally {
      setSending(false);
    }
  }

  const question = questionText(check.question_key, t);
  const choices = check.choices;
  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-describedby={introId}>
      <p id={introId}>{check.reason === 'before_final' ? t('identity.introFinal') : t('identity.intro')}</p>
      {notice === 'wrong' && (
        <p role="alert" className="mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {t('identity.wrong')}
        </p>
      )}
      {notice === 'error' && (
        <p role="alert" className="mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {t('identity.error')}
        </p>
      )}
      <p role="timer" aria-live="off" className="mt-3 text-sm font-semibold text-slate-800">
        {t('identity.timeLeft', { time: clockText(secondsLeft) })}
      </p>
      {hurry && (
        <p className="mt-2 rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-900">
          {t('identity.hurry')}
        </p>
      )}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <div className="mt-3">
        {choices ? (
          <fieldset aria-describedby={missing ? errorId : undefined}>
            <legend className="font-semibold text-slate-900">{question}</legend>
            <div className="mt-2 space-y-2">
              {choices.map((choice) => (
                <label key={choice} className="flex cursor-pointer items-start gap-3 rounded-md p-2 hover:bg-slate-50">
                  <input
                    type="radio"
                    name="identity-answer"
                    value={choice}
                    checked={answer === choice}
                    onChange={() => {
                      setAnswer(choice);
                      setMissing(false);
                    }}
                    className="mt-1 h-4 w-4 shrink-0"
                  />
                  <span>{choice}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : (
          <>
            <label htmlFor={inputId} className="block font-semibold text-slate-900">
              {question}
            </label>
            <input
              id={inputId}
              name="identity-answer"
              autoComplete="off"
              value={answer}
              maxLength={200}
              onChange={(event) => {
                setAnswer(event.target.value);
                setMissing(false);
              }}
              aria-invalid={missing || undefined}
              aria-describedby={missing ? errorId : undefined}
              className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-blue-700"
            />
          </>
        )}
        {missing && (
          <p id={errorId} className="mt-1 text-sm font-semibold text-red-800">
            {t('identity.answerRequired')}
          </p>
        )}
      </div>
      <DialogActions>
        <Button type="submit" disabled={sending || secondsLeft === 0}>
          {sending ? t('common.loading') : t('identity.submit')}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Why the course is locked: until when, or that only the school can unlock it (with its address). */
function LockedMessage({ until, onClose }: { until: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const email = config.data?.supportEmail;
  return (
    <>
      {until ? (
        <p>{t('identity.lockedUntil', { time: formatMoment(until) })}</p>
      ) : (
        <>
          <p>{t('identity.lockedAdmin')}</p>
          {email && (
            <p>
              {t('identity.contact')}{' '}
              <a className="font-semibold text-blue-800 underline" href={`mailto:${email}`}>
                {email}
              </a>
            </p>
          )}
        </>
      )}
      <DialogActions>
        <Button onClick={onClose}>{t('identity.close')}</Button>
      </DialogActions>
    </>
  );
}
