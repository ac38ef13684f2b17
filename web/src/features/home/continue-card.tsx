import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import { buttonClass } from '../../components/button.tsx';
import { useModules } from '../course/course-queries.ts';
import { useCompletedChapters } from '../progress/progress-queries.ts';
import { currentChapter, whereNext } from './where-next.ts';

/**
 * The top of home for a student who has started (decision 067): where they are and a Continue
 * button to the next module or quiz; once the course is complete, the way to the certificate.
 * A student who has not started sees none: the spec's Begin Course is the way in.
 */
export function ContinueCard() {
  const { t } = useTranslation();
  const completed = useCompletedChapters();
  const chapter = completed.data ? currentChapter(completed.data) : null;
  // The current chapter's modules (none asked for the final or a finished course).
  const modules = useModules(chapter !== null && chapter <= 4 ? chapter : 0);
  if (!completed.data) return null;
  const where = whereNext(completed.data, modules.data);
  if (where.kind === 'not_started') return null;

  const card = (heading: string, detail: string | null, to: string, action: string) => (
    <section aria-labelledby="continue-heading" className="rounded-lg border border-blue-200 bg-blue-50 p-5 shadow-sm">
      <h2 id="continue-heading" className="text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      {detail && <p className="mt-1 text-slate-800">{detail}</p>}
      <Link to={to} className={`${buttonClass()} mt-4 w-full sm:w-auto`}>
        {action}
      </Link>
    </section>
  );

  if (where.kind === 'complete') return card(t('continue.complete'), null, '/certificate', t('continue.certificate'));
  if (where.kind === 'final') return card(t('continue.heading'), t('nav.finalExam'), '/final', t('continue.button'));
  const next =
    'module' in where.next
      ? { label: where.next.module.title, href: where.next.module.href }
      : { label: t('course.quizStep', { number: where.next.quiz }), href: `/quiz/${String(where.next.quiz)}` };
  return card(
    t('continue.heading'),
    `${t('continue.where', { chapter: where.chapter })} · ${t('continue.next', { step: next.label })}`,
    next.href,
    t('continue.button'),
  );
}
