import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import { FINAL_EXAM_CHAPTER, type SeatTimeStatus, seatTimeApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { ApiError, callApi, detailsOf } from '../../lib/api.ts';
import { useIdentityCheckDue } from './identity-check.tsx';
import { formatDuration, formatLimit } from '../../lib/durations.ts';
import { courseQueries, type SeatTimeQuery } from './course-queries.ts';

/**
 * Seat time on the course pages (decision 012). The server counts the time from
 * heartbeats and refuses Mark Complete and the quizzes until the profile's minimums are met; the
 * browser only says it is active and shows what the server answered. Under a profile with no
 * minimums (the default) the server answers required: false and nothing here shows or runs.
 */

/** The student counts as active this long after their last pointer, key, scroll, touch or video frame. */
const ACTIVE_WINDOW_MS = 60_000;
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'scroll', 'wheel', 'touchstart'] as const;
/** Media events do not bubble, but a capturing listener on the document hears them: a playing video. */
const MEDIA_EVENTS = ['play', 'timeupdate'] as const;

/** The student's seat time for a module (and its chapter), a chapter, or the course. */
export function useSeatTime(studentId: number, query: SeatTimeQuery, enabled = true) {
  return useQuery({ ...courseQueries.seatTime(studentId, query), enabled: enabled && studentId > 0 });
}

export function dailyCapReached(status: SeatTimeStatus | undefined): boolean {
  return (
    status?.required === true && status.dailyCapSeconds !== null && status.todayCountedSeconds >= status.dailyCapSeconds
  );
}

/** The seconds still required that a SEAT_TIME_REQUIRED refusal carries, or null for another error. */
export function seatTimeRefusal(error: unknown): number | null {
  return detailsOf(error, 'SEAT_TIME_REQUIRED')?.remainingSeconds ?? null;
}

export interface SeatTimeHeartbeat {
  /** The server's latest answer (undefined while loading; required false under the default profile). */
  status: SeatTimeStatus | undefined;
  /** The module's time still required, counted down locally between the server's answers (display only). */
  displayRemainingSeconds: number;
  /** true while the module still needs time by the server's count: Mark Complete waits. */
  moduleTimeRequired: boolean;
}

/**
 * On a module page: asks the server for the module's seat time and, only when the profile needs
 * it, sends a heartbeat every `heartbeatSeconds` while the page is visible and the student was
 * active in the last minute. The server's answers replace what is shown.
 */
export function useSeatTimeHeartbeat(studentId: number, moduleId: number): SeatTimeHeartbeat {
  const queryClient = useQueryClient();
  const identityCheckDue = useIdentityCheckDue();
  const query = { moduleId };
  const seatTime = useSeatTime(studentId, query, moduleId > 0);
  const status = seatTime.data;
  const required = status?.required === true;
  const heartbeatSeconds = status?.heartbeatSeconds ?? 30;
  const moduleRemaining = status?.module?.remainingSeconds ?? 0;

  const [mountedAt] = useState(() => Date.now());
  const lastActivity = useRef(mountedAt);
  const [answeredAt, setAnsweredAt] = useState(mountedAt);
  // The local countdown's clock: the time of the last tick and whether the student was active then.
  const [tick, setTick] = useState({ now: mountedAt, active: true });

  // Activity: anything the student does on the page, or a video playing.
  useEffect(() => {
    if (!required) return;
    const markActive = () => {
      lastActivity.current = Date.now();
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, markActive, { passive: true, capture: true });
    for (const name of MEDIA_EVENTS) document.addEventListener(name, markActive, true);
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, markActive, { capture: true });
      for (const name of MEDIA_EVENTS) document.removeEventListener(name, markActive, true);
    };
  }, [required]);

  // Heartbeats: one at once (it starts the clock), then every heartbeatSeconds while active, and
  // sooner when the module's remaining time runs out, so Mark Complete opens without waiting.
  useEffect(() => {
    if (!required) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const isActive = () =>
      document.visibilityState === 'visible' && Date.now() - lastActivity.current <= ACTIVE_WINDOW_MS;

    async function send(): Promise<number> {
      try {
        const answer = await callApi(seatTimeApi.heartbeat, { body: { studentId, moduleId } });
        if (!stopped) {
          setAnsweredAt(Date.now());
          queryClient.setQueryData(courseQueries.seatTime(studentId, { moduleId }).queryKey, answer);
          if (answer.identityCheckDue) identityCheckDue();
        }
        const remaining = answer.module?.remainingSeconds ?? 0;
        return remaining > 0 ? Math.min(answer.heartbeatSeconds, remaining + 1) : answer.heartbeatSeconds;
      } catch (error) {
        // Signed out, unpaid, not this student, no such module: nothing more to count here.
        if (error instanceof ApiError && [401, 402, 403, 404].includes(error.status)) stopped = true;
        return heartbeatSeconds;
      }
    }

    async function tick() {
      const delay = isActive() ? await send() : heartbeatSeconds;
      if (!stopped) timer = setTimeout(() => void tick(), delay * 1000);
    }
    void tick();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      // Leaving the module: the time since the last heartbeat belongs to this module.
      if (isActive()) void callApi(seatTimeApi.heartbeat, { body: { studentId, moduleId } }).catch(() => undefined);
    };
  }, [required, studentId, moduleId, heartbeatSeconds, queryClient, identityCheckDue]);

  // A local countdown for display between the server's answers (the server decides).
  useEffect(() => {
    if (!required || moduleRemaining === 0) return;
    const interval = setInterval(() => {
      const now = Date.now();
      setTick({ now, active: now - lastActivity.current <= ACTIVE_WINDOW_MS });
    }, 1000);
    return () => clearInterval(interval);
  }, [required, moduleRemaining]);

  const counting = required && !dailyCapReached(status) && document.visibilityState === 'visible' && tick.active;
  const elapsed = counting ? Math.max(0, Math.floor((tick.now - answeredAt) / 1000)) : 0;
  return {
    status,
    displayRemainingSeconds: Math.max(0, moduleRemaining - elapsed),
    moduleTimeRequired: required && moduleRemaining > 0,
  };
}

/** The module page's notice: the time still required here, and the daily limit once reached. */
export function ModuleSeatTimeNotice({ heartbeat }: { heartbeat: SeatTimeHeartbeat }) {
  const { t, i18n } = useTranslation();
  const { status, displayRemainingSeconds } = heartbeat;
  if (!status?.required) return null;
  const remaining = status.module?.remainingSeconds ?? 0;
  const moduleHasMinimum = (status.module?.requiredSeconds ?? 0) > 0;
  // Screen readers hear the server's count, minute by minute; the box counts down second by second.
  const spoken =
    remaining > 0
      ? t('seatTime.moduleRemaining', { time: formatDuration(Math.ceil(remaining / 60) * 60, t) })
      : moduleHasMinimum
        ? t('seatTime.moduleDone')
        : '';
  return (
    <div className="space-y-2">
      <p className="sr-only" role="status" aria-live="polite">
        {spoken}
      </p>
      {remaining > 0 && (
        <p
          aria-hidden="true"
          className="rounded-md border border-blue-300 bg-blue-50 px-4 py-3 text-sm font-semibold text-blue-900"
        >
          {t('seatTime.moduleRemaining', { time: formatDuration(displayRemainingSeconds, t) })}
        </p>
      )}
      {dailyCapReached(status) && status.dailyCapSeconds !== null && (
        <Alert tone="info">
          {t('seatTime.dailyCapReached', { limit: formatLimit(status.dailyCapSeconds, t, i18n.language) })}
        </Alert>
      )}
    </div>
  );
}

/**
 * The notice before a quiz: the time still required in the chapter (its quiz) or the course (the
 * final). Nothing once the time is met.
 */
export function SeatTimeNotice({ remainingSeconds, scope }: { remainingSeconds: number; scope: 'chapter' | 'course' }) {
  const { t } = useTranslation();
  if (remainingSeconds <= 0) return null;
  const time = formatDuration(Math.ceil(remainingSeconds / 60) * 60, t);
  return (
    <Alert tone="info">
      {scope === 'chapter' ? t('seatTime.chapterRemaining', { time }) : t('seatTime.courseRemaining', { time })}
    </Alert>
  );
}

/** On a chapter page: the time still required in the chapter before its quiz, under a timed profile. */
export function ChapterSeatTimeNotice({ studentId, chapterId }: { studentId: number; chapterId: number }) {
  const seatTime = useSeatTime(studentId, { chapterId });
  const chapter = seatTime.data?.required ? seatTime.data.chapter : null;
  if (!chapter) return null;
  return <SeatTimeNotice scope="chapter" remainingSeconds={chapter.remainingSeconds} />;
}

/**
 * On the quiz page, when the server refused the draw with SEAT_TIME_REQUIRED: the time still
 * required in the chapter (or the course, for the final) instead of the quiz.
 */
export function QuizSeatTimeRefusal({ chapterId, remainingSeconds }: { chapterId: number; remainingSeconds: number }) {
  const { t } = useTranslation();
  const isFinal = chapterId === FINAL_EXAM_CHAPTER;
  return (
    <div className="space-y-4">
      <SeatTimeNotice scope={isFinal ? 'course' : 'chapter'} remainingSeconds={Math.max(1, remainingSeconds)} />
      <p className="text-slate-800">{t('seatTime.howItCounts')}</p>
      {!isFinal && (
        <Link to={`/content/${String(chapterId)}`} className="font-semibold text-blue-800 underline">
          {t('course.backToChapter', { number: chapterId })}
        </Link>
      )}
    </div>
  );
}
