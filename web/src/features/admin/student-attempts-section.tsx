import { type AdminStudent, FINAL_EXAM_CHAPTER } from '@ts/contract';
import { DataTable } from '../../components/data-table.tsx';
import { formatShortDate } from '../../lib/dates.ts';
import { useTranslation } from '../../lib/i18n.ts';

/** Every submitted quiz and final exam attempt, chapter by chapter, oldest first within each. */
export function StudentAttemptsSection({ attempts }: { attempts: AdminStudent['attempts'] }) {
  const { t } = useTranslation();
  // Array sort is stable: within a chapter the server's oldest-first order stays.
  const byChapter = [...attempts].sort((a, b) => a.chapter_id - b.chapter_id);
  return (
    <section aria-labelledby="attempts-heading" className="rounded-lg bg-white p-6 shadow">
      <h2 id="attempts-heading" className="text-lg font-semibold">
        {t('adminStudent.attempts')}
      </h2>
      {byChapter.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('adminStudent.noAttempts')}</p>
      ) : (
        <DataTable
          rows={byChapter}
          rowKey={(attempt, index) => `${String(attempt.chapter_id)}-${attempt.submitted_at ?? String(index)}`}
          columns={[
            {
              header: t('adminStudent.attempt.chapter'),
              className: 'whitespace-nowrap',
              cell: (attempt) =>
                attempt.chapter_id === FINAL_EXAM_CHAPTER
                  ? t('adminStudent.attempt.finalExam')
                  : t('adminStudent.attempt.chapterNumber', { number: attempt.chapter_id }),
            },
            {
              header: t('adminStudent.attempt.submitted'),
              className: 'whitespace-nowrap',
              cell: (attempt) => (attempt.submitted_at ? formatShortDate(attempt.submitted_at) : ''),
            },
            {
              header: t('adminStudent.attempt.score'),
              className: 'whitespace-nowrap',
              cell: (attempt) =>
                attempt.score === null
                  ? ''
                  : t('adminStudent.attempt.scoreOf', { score: attempt.score, total: attempt.total }),
            },
            {
              header: t('adminStudent.attempt.result'),
              cell: (attempt) =>
                attempt.passed === null
                  ? ''
                  : attempt.passed
                    ? t('adminStudent.attempt.passed')
                    : t('adminStudent.attempt.failed'),
            },
          ]}
        />
      )}
    </section>
  );
}
