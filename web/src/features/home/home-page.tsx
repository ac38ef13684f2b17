import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import { buttonClass } from '../../components/button.tsx';
import { useStoredUser } from '../../lib/session.ts';
import { DeadlineNotice, useStudentRules } from '../rules/rules-messages.tsx';
import { certificateLine, RulesSummaryList } from '../rules/rules-summary.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { ReminderSwitch } from './reminder-switch.tsx';
import { ContinueCard } from './continue-card.tsx';

/** Spec 1 and 2: welcome, how it works, and Begin Course. */
export function HomePage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  // Spec 2: Begin Course goes to /certificate once the final exam is complete, otherwise to chapter 1.
  const beginPath = user?.completed_at ? '/certificate' : '/content/1';
  const points = ['available', 'selfPaced', 'savesPlace', 'courtNotified'] as const;
  // Decision 021: the student's own court's rules, not the default course's promise.
  const rules = useStudentRules(user?.type === 'student' ? user.id : null).data;
  const courtNotNotified =
    rules !== undefined && certificateLine(rules) !== 'rulesSummary.certificate.toStudentAndCourt';
  const pointTitle = (point: (typeof points)[number]) =>
    point === 'courtNotified' && courtNotNotified ? t('home.certificateTitle') : t(`home.points.${point}.title`);
  const pointBody = (point: (typeof points)[number]) =>
    point === 'courtNotified' && rules ? t(certificateLine(rules)) : t(`home.points.${point}.body`);
  return (
    <div className="space-y-6">
      <PageHeading className="text-3xl font-bold text-slate-900">
        {t('home.welcome', { name: user?.name ?? '' })}
      </PageHeading>
      {/* Decision 067: where a student who has started left off, first. */}
      {user?.type === 'student' && <ContinueCard />}
      {/* Decision 012: the deadline nears (or the window has ended); nothing without a deadline. */}
      <DeadlineNotice studentId={user?.type === 'student' && !user.completed_at ? user.id : null} />
      <section aria-labelledby="how-it-works" className="rounded-lg bg-white p-6 shadow">
        <h2 id="how-it-works" className="text-xl font-semibold">
          {t('home.howItWorks')}
        </h2>
        <p className="mt-2 text-slate-700">{t('home.intro')}</p>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2">
          {points.map((point) => (
            <li key={point} className="rounded-md border border-slate-200 p-4">
              <p className="font-semibold text-slate-900">{pointTitle(point)}</p>
              <p className="mt-1 text-slate-700">{pointBody(point)}</p>
            </li>
          ))}
        </ul>
        <p className="mt-4 text-slate-700">{t('home.steps')}</p>
      </section>
      {rules && <RulesSummaryList rules={rules} heading={t('rulesSummary.heading')} id="court-rules" />}
      <Link to={beginPath} className={`${buttonClass()} w-full sm:w-auto`}>
        {t('home.begin')}
      </Link>
      {/* Decision 059: reminders before the student's dates, until the course is finished. */}
      {user?.type === 'student' && !user.completed_at && <ReminderSwitch studentId={user.id} />}
    </div>
  );
}
