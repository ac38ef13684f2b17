import type { Dispatch, SetStateAction } from 'react';
import type { CourtCompletion } from '@ts/contract';
import { Button } from '../../components/button.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { formatDay, formatMoment } from '../../lib/dates.ts';
import { useTranslation } from '../../lib/i18n.ts';

/**
 * The court's completions (decision 025): each certificate's PDF, the driver, the case, when it was
 * completed, emailed and acknowledged. A court's own staff select rows and acknowledge one or all
 * of them; everyone else reads.
 */
export function CourtCompletionsTable({
  rows,
  ownCourt,
  selected,
  onSelect,
  acknowledging,
  onAcknowledge,
}: {
  rows: CourtCompletion[];
  ownCourt: boolean;
  selected: ReadonlySet<string>;
  onSelect: Dispatch<SetStateAction<ReadonlySet<string>>>;
  acknowledging: boolean;
  onAcknowledge: (numbers: readonly string[]) => void;
}) {
  const { t } = useTranslation();
  const unacknowledged = rows.filter((row) => row.acknowledged_at === null).map((row) => row.certificate_number);
  const toggle = (number: string) =>
    onSelect((current) => {
      const next = new Set(current);
      if (next.has(number)) next.delete(number);
      else next.add(number);
      return next;
    });
  return (
    <DataTable<CourtCompletion>
      variant="boxed"
      caption={t('court.caption')}
      rows={rows}
      rowKey={(row) => row.certificate_number}
      columns={[
        ...(ownCourt
          ? [
              {
                header: (
                  <input
                    type="checkbox"
                    aria-label={t('court.selectAll')}
                    checked={unacknowledged.length > 0 && unacknowledged.every((n) => selected.has(n))}
                    disabled={unacknowledged.length === 0}
                    onChange={(event) => onSelect(new Set(event.target.checked ? unacknowledged : []))}
                  />
                ),
                cell: (row: CourtCompletion) =>
                  row.acknowledged_at === null ? (
                    <input
                      type="checkbox"
                      aria-label={t('court.select', { number: row.certificate_number })}
                      checked={selected.has(row.certificate_number)}
                      onChange={() => toggle(row.certificate_number)}
                    />
                  ) : null,
              },
            ]
          : []),
        {
          header: t('court.columns.certificate'),
          rowHeader: true,
          cell: (row) => (
            <a
              href={`/api/certificates/${encodeURIComponent(row.certificate_number)}/pdf`}
              className="text-blue-800 underline"
            >
              {row.certificate_number}
            </a>
          ),
        },
        { header: t('court.columns.name'), cell: (row) => `${row.last_name}, ${row.first_name}` },
        { header: t('court.columns.licence'), cell: (row) => row.dl_number },
        { header: t('court.columns.caseNumber'), cell: (row) => row.case_number ?? '—' },
        { header: t('court.columns.completed'), cell: (row) => formatDay(row.completed_at) },
        {
          header: t('court.columns.emailed'),
          cell: (row) => (row.court_email_sent_at ? formatMoment(row.court_email_sent_at) : '—'),
        },
        {
          header: t('court.columns.acknowledged'),
          cell: (row) =>
            row.acknowledged_at ? (
              formatMoment(row.acknowledged_at)
            ) : ownCourt ? (
              <Button
                variant="secondary"
                onClick={() => onAcknowledge([row.certificate_number])}
                disabled={acknowledging}
                aria-label={t('court.acknowledgeOne', { number: row.certificate_number })}
              >
                {t('court.acknowledge')}
              </Button>
            ) : (
              t('court.notYet')
            ),
        },
      ]}
    />
  );
}
