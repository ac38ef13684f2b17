import { Link, Navigate, useParams } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import { Alert } from '../../components/alert.tsx';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { Stepper } from '../../components/stepper.tsx';
import { buildChapterSteps, courseProgressPercent } from './chapter-steps.ts';
import { useChapters, useModules, useQuizStatus, useStudentId } from './course-queries.ts';
import { useCompletedChapters } from '../progress/progress-queries.ts';
import { chapterLockedBy } from '../progress/chapter-open.ts';
import { ChapterSeatTimeNotice } from './seat-time.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { LockIcon } from '../../components/icons.tsx';

/** Spec 2 /content/{chapterId}: the chapter's stepper and 'Choose a module to begin!'. */
export function ChapterPage() {
  const { chapterId: raw = '' } = useParams();
  const chapterId = Number(raw);
  // Spec 4: after chapter 4's quiz one reading goes to /content/5; it leads to the final.
  if (chapterId === 5 || chapterId === 6) return <Navigate to="/final" replace />;
  if (!Number.isInteger(chapterId) || chapterId < 1 || chapterId > 4) return <Navigate to="/" replace />;
  return <Chapter chapterId={chapterId} />;
}

function Chapter({ chapterId }: { chapterId: number }) {
  const { t } = useTranslation();
  const chapters = useChapters();
  const modules = useModules(chapterId);
  const quizStatus = useQuizStatus(chapterId);
  const completed = useCompletedChapters();
  const studentId = useStudentId();
  const chapter = chapters.data?.find((c) => c.id === chapterId);
  const quizLabel = t('course.quizStep', { number: chapterId });
  // A chapter not open yet (spec 4) says which quiz opens it, and no step of it is "up next".
  const lockedBy = chapterLockedBy(completed.data, chapterId);
  const steps = modules.data
    ? buildChapterSteps(chapterId, modules.data, quizStatus.data, quizLabel).map((step) =>
        lockedBy !== null && step.state === 'current' ? { ...step, state: 'upcoming' as const } : step,
      )
    : undefined;
  const currentStep = steps?.find((step) => step.state === 'current');
  // Four chapters and the final exam, each a fifth of the course; this chapter's steps count as done.
  const progress = courseProgressPercent(completed.data ?? [], chapterId, steps);

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm font-semibold uppercase tracking-wide text-blue-800">
          {t('nav.chapter', { number: chapterId })}
        </p>
        <PageHeading className="text-2xl font-bold text-slate-900">
          {chapter?.title ?? t('nav.chapter', { number: chapterId })}
        </PageHeading>
        {chapter && <p className="mt-2 text-slate-700">{chapter.description}</p>}
      </div>
      <ProgressBar label={t('course.progress')} value={progress} />
      {quizStatus.data?.complete === false && <ChapterSeatTimeNotice studentId={studentId} chapterId={chapterId} />}
      {modules.isError && <Alert>{t('course.loadError')}</Alert>}
      {modules.isLoading && (
        <div className="h-40 animate-pulse rounded-lg bg-slate-200" aria-label={t('common.loading')} />
      )}
      {lockedBy !== null && <ChapterLockedNotice chapter={lockedBy} />}
      {modules.data && (
        <>
          {lockedBy === null && (
            <p className="text-lg font-semibold text-slate-900">
              {/* Spec 2's invitation while nothing of the chapter is done; then the step that is next. */}
              {currentStep && steps?.some((step) => step.state === 'complete')
                ? t('continue.next', { step: currentStep.label })
                : t('course.chooseModule')}
            </p>
          )}
          <Stepper
            label={t('course.stepsLabel', { number: chapterId })}
            steps={steps ?? []}
            stateLabels={{
              complete: t('course.step.complete'),
              current: t('course.step.current'),
              upcoming: t('course.step.upcoming'),
            }}
          />
        </>
      )}
    </div>
  );
}

/** What keeps a chapter closed, with the way to the quiz that opens it (the server's CHAPTER_LOCKED). */
export function ChapterLockedNotice({ chapter }: { chapter: number }) {
  const { t } = useTranslation();
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950" role="note">
      <p className="flex items-center gap-2 font-semibold">
        <LockIcon />
        {t('course.lockedBy', { number: chapter })}
      </p>
      <Link to={`/quiz/${String(chapter)}`} className="mt-2 inline-block font-semibold text-blue-800 underline">
        {t('course.lockedByLink', { number: chapter })}
      </Link>
    </div>
  );
}
