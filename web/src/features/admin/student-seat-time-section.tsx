import { useTranslation } from '../../lib/i18n.ts';
import type { AdminStudent } from '@ts/contract';
import { DataTable } from '../../components/data-table.tsx';
import { formatDuration } from '../../lib/durations.ts';
import { formatMoment } from '../../lib/dates.ts';

/**
 * Decision 012: the study time the server counted for a student, per chapter and in all, against the
 * profile's minimums, for staff answering a student or an auditor. Nothing shows for a student
 * under a profile without minimums who has nothing counted (every default-profile student).
 */
export function StudentSeatTimeSection({ seatTime }: { seatTime: AdminStudent['seat_time'] }) {
  const { t } = useTranslation();
  if (!seatTime) return null;
  const required = (seconds: number) => (seconds > 0 ? formatDuration(seconds, t) : t('seatTime.admin.noMinimum'));
  return (
    <section aria-labelledby="seat-time-heading" className="rounded-lg bg-white p-6 shadow">
      <h2 id="seat-time-heading" className="text-lg font-semibold">
        {t('seatTime.admin.heading')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('seatTime.admin.intro')}</p>
      <DataTable
        rows={seatTime.chapters}
        rowKey={(chapter) => chapter.chapter_id}
        columns={[
          {
            header: t('seatTime.admin.part'),
            rowHeader: true,
            cell: (chapter) => t('seatTime.admin.chapter', { number: chapter.chapter_id }),
          },
          { header: t('seatTime.admin.counted'), cell: (chapter) => formatDuration(chapter.counted_seconds, t) },
          { header: t('seatTime.admin.required'), cell: (chapter) => required(chapter.required_seconds) },
        ]}
        footer={
          <tr>
            <th scope="row" className="py-2 pr-4 font-semibold">
              {t('seatTime.admin.course')}
            </th>
            <td className="py-2 pr-4 font-semibold">{formatDuration(seatTime.counted_seconds, t)}</td>
            <td className="py-2 pr-4 font-semibold">{required(seatTime.required_seconds)}</td>
          </tr>
        }
      />
      {seatTime.first_activity_at && seatTime.last_activity_at && (
        <ul className="mt-3 space-y-1 text-sm text-slate-700">
          <li>{t('seatTime.admin.firstActivity', { time: formatMoment(seatTime.first_activity_at) })}</li>
          <li>{t('seatTime.admin.lastActivity', { time: formatMoment(seatTime.last_activity_at) })}</li>
        </ul>
      )}
    </section>
  );
}
