import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import type { TFunction } from '../../lib/i18n.ts';
import { FINAL_EXAM_CHAPTER, type RulesSummary, type StudentRules } from '@ts/contract';
import { formatLimit } from '../../lib/durations.ts';
import { rulesQueries } from './rules-queries.ts';

/**
 * A court's rules in plain sentences (decision 021): what the driver must do and what happens with
 * the certificate, from the profile the server names, so a strict court's 8 of 10 or 3 attempts
 * is said before paying and at every step, never the default course's promise.
 */
export function describeRules(rules: RulesSummary, t: TFunction, language: string): string[] {
  const time = (minutes: number) => formatLimit(minutes * 60, t, language);
  const { seatTime, quizzes } = rules;
  const lines: string[] = [];
  if (seatTime.minutesBeforeFinal + seatTime.minutesPerChapter + seatTime.minutesPerModule === 0) {
    lines.push(t('rulesSummary.noMinimumTime'));
  }
  if (seatTime.minutesBeforeFinal > 0)
    lines.push(t('rulesSummary.timeBeforeFinal', { time: time(seatTime.minutesBeforeFinal) }));
  if (seatTime.minutesPerChapter > 0)
    lines.push(t('rulesSummary.timePerChapter', { time: time(seatTime.minutesPerChapter) }));
  if (seatTime.minutesPerModule > 0)
    lines.push(t('rulesSummary.timePerModule', { time: time(seatTime.minutesPerModule) }));
  if (seatTime.dailyCapMinutes !== null)
    lines.push(t('rulesSummary.dailyCap', { time: time(seatTime.dailyCapMinutes) }));
  lines.push(
    rules.identityChecks.enabled
      ? t('rulesSummary.identityChecks', { seconds: rules.identityChecks.answerSeconds })
      : t('rulesSummary.noIdentityChecks'),
  );
  const retakes = (quiz: RulesSummary['quizzes']['final']) =>
    [
      quiz.attempts === null ? t('rulesSummary.retakeUnlimited') : t('rulesSummary.attempts', { count: quiz.attempts }),
      quiz.waitMinutes > 0 ? t('rulesSummary.wait', { time: time(quiz.waitMinutes) }) : '',
    ]
      .filter(Boolean)
      .join(' ');
  lines.push(`${t('rulesSummary.chapterQuiz', quizzes.chapter)} ${retakes(quizzes.chapter)}`);
  lines.push(`${t('rulesSummary.finalExam', quizzes.final)} ${retakes(quizzes.final)}`);
  // What staff granted beyond the profile, so the student sees the new limit.
  if ('extraAttempts' in rules) {
    for (const extra of (rules as StudentRules).extraAttempts) {
      const quiz =
        extra.chapter === FINAL_EXAM_CHAPTER
          ? t('rulesSummary.theFinal')
          : t('rulesSummary.chapterNumberQuiz', { number: extra.chapter });
      lines.push(t('rulesSummary.extraAttempts', { count: extra.attempts, quiz }));
    }
  }
  lines.push(
    rules.windowDays === null ? t('rulesSummary.noWindow') : t('rulesSummary.window', { days: rules.windowDays }),
  );
  lines.push(t(certificateLine(rules)));
  return lines;
}

/** Where the certificate goes: to the court only under the spec's routing and with the court's address. */
export function certificateLine(rules: Pick<RulesSummary, 'certificateRouting' | 'courtHasEmail'>): string {
  if (rules.certificateRouting === 'held_for_state_report') return 'rulesSummary.certificate.stateReport';
  return rules.certificateRouting === 'student_and_court' && rules.courtHasEmail
    ? 'rulesSummary.certificate.toStudentAndCourt'
    : 'rulesSummary.certificate.toStudent';
}

/** The rules as a list under a heading of the page's second level. */
export function RulesSummaryList({ rules, heading, id }: { rules: RulesSummary; heading: string; id: string }) {
  const { t, i18n } = useTranslation();
  return (
    <section aria-labelledby={id} className="rounded-lg border border-blue-200 bg-blue-50 p-4 text-slate-800">
      <h2 id={id} className="font-semibold text-slate-900">
        {heading}
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5" data-testid="rules-summary">
        {describeRules(rules, t, i18n.language).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}

/** A court's rules (GET /api/public/courts/:id/rules), in the page's language; idle without a court. */
export function useCourtRules(courtId: number | null) {
  const { i18n } = useTranslation();
  return useQuery({ ...rulesQueries.court(courtId ?? 0, i18n.language), enabled: courtId !== null });
}
