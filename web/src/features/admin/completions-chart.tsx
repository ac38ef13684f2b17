import { useId } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import type { ReportRow } from '@ts/contract';

/**
 * The last 30 days' completions per court as horizontal bars (CSS, no chart library). Screen
 * readers get the whole chart as one sentence; the table above holds every figure as well.
 */
export function CompletionsChart({ rows }: { rows: ReportRow[] }) {
  const { t } = useTranslation();
  const captionId = useId();
  const largest = Math.max(1, ...rows.map((row) => row.thirty_day));
  const summary = rows
    .map((row) => t('dashboard.chartItem', { court: row.court_name, count: row.thirty_day }))
    .join('; ');

  return (
    <figure aria-labelledby={captionId} className="rounded-lg bg-white p-4 shadow">
      <figcaption id={captionId} className="mb-3 font-semibold text-slate-900">
        {t('dashboard.chartTitle')}
      </figcaption>
      <div role="img" aria-label={summary} className="space-y-3">
        {rows.map((row) => (
          <div key={row.court_id}>
            <div className="flex justify-between gap-3 text-sm text-slate-700">
              <span className="break-words">{row.court_name}</span>
              <span className="font-semibold tabular-nums text-slate-900">{row.thirty_day}</span>
            </div>
            <div className="mt-1 h-3 rounded bg-slate-100">
              <div
                className="h-3 rounded bg-blue-700"
                style={{ width: `${String((row.thirty_day / largest) * 100)}%` }}
              />
            </div>
          </div>
        ))}
      </div>
    </figure>
  );
}
