import { Link, Navigate, useLocation } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import { QuizResultSchema, type StudentRules } from '@ts/contract';
import { buttonClass } from '../../components/button.tsx';
import { usePublicConfig } from '../../lib/queries.ts';
import { useStudentRules } from '../rules/rules-messages.tsx';
import { nextChapterHref } from './chapter-steps.ts';
import { useStudentId } from './course-queries.ts';
import { PageHeading } from '../../components/page-heading.tsx';

const FINAL_PASSED: Record<StudentRules['certificateRouting'], string> = {
  student_and_court: 'score.finalPassed',
  student_only: 'score.finalPassedStudentOnly',
  held_for_state_report: 'score.finalPassedStateReport',
};

/** Spec 2 /score: the result the server gave, passed in navigation state; without it, home. */
export function ScorePage() {
  const { t } = useTranslation();
  const location = useLocation();
  const config = usePublicConfig();
  const studentId = useStudentId();
  const rules = useStudentRules(studentId > 0 ? studentId : null);
  // The spec's words unless the student's profile sends the certificate elsewhere (decision 012).
  const routing = rules.data?.certificateRouting ?? 'student_and_court';
  const parsed = QuizResultSchema.safeParse((location.state as { result?: unknown } | null)?.result);
  if (!parsed.success) return <Navigate to="/" replace />;
  const result = parsed.data;
  const passed = result.status === 'PASS';

  return (
    <div className="space-y-6">
      <div className={`rounded-lg p-6 ${passed ? 'bg-green-50 text-green-900' : 'bg-red-50 text-red-900'}`}>
        <PageHeading className="text-2xl font-bold">{passed ? t('score.passed') : t('score.failed')}</PageHeading>
        <p className="mt-1 text-lg">{t('score.score', { score: result.score, total: result.total })}</p>
        {result.isFinal && passed && (
          <p className="mt-3">{t(FINAL_PASSED[routing], { email: config.data?.supportEmail ?? '' })}</p>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        {!passed && (
          <Link to={result.isFinal ? '/final' : `/quiz/${String(result.chapter)}`} className={buttonClass()}>
            {t('score.retry')}
          </Link>
        )}
        {passed && !result.isFinal && (
          <Link to={nextChapterHref(result.chapter)} className={buttonClass()}>
            {t('score.continue')}
          </Link>
        )}
        {result.isFinal && passed && (
          <Link to="/certificate" className={buttonClass()}>
            {t('score.viewCertificate')}
          </Link>
        )}
        {result.isFinal && (
          <Link to="/" className={buttonClass('secondary')}>
            {t('score.home')}
          </Link>
        )}
      </div>
      <ol className="space-y-4">
        {result.questionDisplay.map((question, index) => (
          <li key={question.id} className="rounded-lg bg-white p-4 shadow-sm">
            <p className="font-semibold text-slate-900">
              {index + 1}. {question.question}
            </p>
            <ul className="mt-3 space-y-2">
              {question.answers.map((answer) => {
                const wrongPick = answer.selected && !answer.correct;
                const style = answer.correct
                  ? 'border-green-700 bg-green-50 text-green-900'
                  : wrongPick
                    ? 'border-red-700 bg-red-50 text-red-900'
                    : 'border-slate-200 text-slate-800';
                return (
                  <li key={answer.id} className={`rounded-md border-2 px-3 py-2 ${style}`}>
                    <span>{answer.content}</span>
                    {/* WCAG 1.4.1: the mark is said in words, not by colour alone. */}
                    {(answer.correct || answer.selected) && (
                      <span className="ml-2 inline-flex flex-wrap gap-2 text-sm font-bold">
                        {answer.correct && <span>✓ {t('score.correctAnswer')}</span>}
                        {answer.selected && (
                          <span>
                            {answer.correct ? '' : '✗ '}
                            {t('score.yourAnswer')}
                          </span>
                        )}
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
            {question.explanation && <p className="mt-3 text-sm text-slate-700">{question.explanation}</p>}
          </li>
        ))}
      </ol>
    </div>
  );
}
