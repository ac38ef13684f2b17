import { useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import { progressApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { callApi } from '../../lib/api.ts';
import { nextStepHref } from './chapter-steps.ts';
import { useModule, useModules, useRefreshProgress, useStudentId, useTopics, useVideo } from './course-queries.ts';
import { InteractiveVideo } from './interactive-video.tsx';
import { sanitizeHtml } from './safe-html.ts';
import { rulesRefusalText } from '../rules/rules-messages.tsx';
import { formatDuration } from '../../lib/durations.ts';
import { ReadAloud } from './read-aloud.tsx';
import { ModuleSeatTimeNotice, seatTimeRefusal, useSeatTimeHeartbeat } from './seat-time.tsx';
import { identityHoldText, useIdentityHold } from './identity-check.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { ApiError } from '../../lib/api.ts';
import { ChapterLockedNotice } from './chapter-page.tsx';

/** Spec 2 /content/{chapterId}/{moduleId}: title, topic sections, the optional video, Mark Complete. */
export function ModulePage() {
  const { chapterId: rawChapter = '', moduleId: rawModule = '' } = useParams();
  // A new module is a fresh page: nothing marked on the previous one carries over.
  return <ModuleView key={rawModule} chapterId={Number(rawChapter)} moduleId={Number(rawModule)} />;
}

function ModuleView({ chapterId, moduleId }: { chapterId: number; moduleId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const studentId = useStudentId();
  const module = useModule(moduleId);
  const modules = useModules(chapterId);
  const topics = useTopics(moduleId);
  const video = useVideo(moduleId);
  const refresh = useRefreshProgress();
  // Seat time (decision 012): nothing runs or shows under a profile without minimums.
  const seatTime = useSeatTimeHeartbeat(studentId, moduleId);
  const [markedHere, setMarkedHere] = useState(false);
  // The topics' text, which Read aloud reads.
  const readingRef = useRef<HTMLDivElement>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  // The quiz the server says keeps this chapter closed (CHAPTER_LOCKED): saying so, never "try again".
  const [lockedBy, setLockedBy] = useState<number | null>(null);
  // Identity checks (decision 012): a refusal for one opens the question (or the lock message).
  const identityHold = useIdentityHold();
  const complete = markedHere || module.data?.complete === true;
  const position = modules.data ? modules.data.findIndex((m) => m.id === moduleId) + 1 : 0;

  async function markComplete() {
    // Spec 4: marked at once on screen, then saved.
    setMarkedHere(true);
    setSaveError(null);
    setLockedBy(null);
    try {
      await callApi(progressApi.completeModule, { body: { studentId, moduleId } });
      await refresh();
    } catch (error) {
      setMarkedHere(false);
      const missing = lockingChapter(error);
      if (missing !== null) {
        setLockedBy(missing);
        return;
      }
      if (identityHold(error)) {
        setSaveError(identityHoldText(error, t));
        return;
      }
      const remaining = seatTimeRefusal(error);
      setSaveError(
        remaining === null
          ? (rulesRefusalText(error, t) ?? t('course.saveError'))
          : t('seatTime.moduleRequired', { time: formatDuration(Math.ceil(remaining / 60) * 60, t) }),
      );
    }
  }

  if (module.isError) return <Alert>{t('course.loadError')}</Alert>;
  return (
    <article className="space-y-6">
      <div>
        <Link to={`/content/${String(chapterId)}`} className="text-sm font-semibold text-blue-800 underline">
          {t('course.backToChapter', { number: chapterId })}
        </Link>
        {position > 0 && modules.data && (
          <p className="mt-3 text-sm font-semibold uppercase tracking-wide text-blue-800">
            {t('course.moduleOf', { current: position, total: modules.data.length })}
          </p>
        )}
        <PageHeading className="text-2xl font-bold text-slate-900">
          {module.data?.title ?? t('common.loading')}
        </PageHeading>
      </div>
      <ModuleSeatTimeNotice heartbeat={seatTime} />
      {topics.data && <ReadAloud target={readingRef} contentKey={topics.data} />}
      <div ref={readingRef} className="space-y-6">
        {topics.isLoading && (
          <div className="h-64 animate-pulse rounded-lg bg-slate-200" aria-label={t('common.loading')} />
        )}
        {topics.data?.map((topic) => (
          <section
            key={topic.id}
            aria-labelledby={`topic-${String(topic.id)}`}
            className="rounded-lg bg-white p-4 shadow sm:p-6"
          >
            <h2 id={`topic-${String(topic.id)}`} className="text-xl font-semibold text-slate-900">
              {topic.title}
            </h2>
            <div
              className="topic-content mt-3"
              dangerouslySetInnerHTML={{ __html: sanitizeHtml(topic.html_content) }}
            />
          </section>
        ))}
      </div>
      {video.data && <InteractiveVideo video={video.data} />}
      {lockedBy !== null && <ChapterLockedNotice chapter={lockedBy} />}
      {saveError && <Alert>{saveError}</Alert>}
      {seatTime.moduleTimeRequired && !complete && (
        <p id="mark-complete-wait" className="text-right text-sm text-slate-700">
          {t('seatTime.markCompleteWaits')}
        </p>
      )}
      <div className="flex justify-end">
        {complete ? (
          <Button
            onClick={() =>
              void navigate(
                modules.data ? nextStepHref(chapterId, modules.data, moduleId) : `/content/${String(chapterId)}`,
              )
            }
          >
            {t('course.continue')}
          </Button>
        ) : (
          <Button
            onClick={() => void markComplete()}
            disabled={!module.data || seatTime.moduleTimeRequired}
            aria-describedby={seatTime.moduleTimeRequired ? 'mark-complete-wait' : undefined}
          >
            {t('course.markComplete')}
          </Button>
        )}
      </div>
    </article>
  );
}

/** The first chapter whose quiz a CHAPTER_LOCKED refusal names, or null for any other error. */
function lockingChapter(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.code !== 'CHAPTER_LOCKED') return null;
  const missing = error.details.missingChapters;
  return Array.isArray(missing) && typeof missing[0] === 'number' ? missing[0] : null;
}
