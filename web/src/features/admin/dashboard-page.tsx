import { schoolToday } from '../../lib/dates.ts';
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import type { ReportRow, Stat, StatName } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { Button } from '../../components/button.tsx';
import { CompletionsChart } from './completions-chart.tsx';
import { downloadReportCsv } from './report-csv.ts';
import { PageHeading } from '../../components/page-heading.tsx';
import { adminQueries } from './admin-queries.ts';

// A US school: money and counts read the same way in both languages ($1,234.56).
const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const moneyFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * Spec 2 /admin: the last 30 days in figures, then completions per court as a table, a chart and
 * a CSV file. Only staff who are not limited to a court get here (AdminIndexPage, spec 6).
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const stats = useQuery(adminQueries.stats());
  const report = useQuery(adminQueries.report());
  const statsHeading = useId();
  const reportHeading = useId();

  return (
    <div className="space-y-8">
      <PageHeading className="text-2xl font-bold text-slate-900">{t('admin.pages.dashboard')}</PageHeading>

      <section aria-labelledby={statsHeading} className="space-y-3">
        <h2 id={statsHeading} className="text-xl font-semibold text-slate-900">
          {t('dashboard.statsTitle')}
        </h2>
        {stats.isLoading && <p className="text-slate-700">{t('common.loading')}</p>}
        {stats.isError && <Alert>{t('dashboard.statsError')}</Alert>}
        {stats.data && <StatList stats={stats.data} />}
      </section>

      <section aria-labelledby={reportHeading} className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id={reportHeading} className="text-xl font-semibold text-slate-900">
            {t('dashboard.reportTitle')}
          </h2>
          {report.data && (
            <Button
              variant="secondary"
              onClick={() => downloadReportCsv(report.data, `completions-by-court-${schoolToday()}.csv`)}
            >
              {t('dashboard.download')}
            </Button>
          )}
        </div>
        {report.isLoading && <p className="text-slate-700">{t('common.loading')}</p>}
        {report.isError && <Alert>{t('dashboard.reportError')}</Alert>}
        {report.data?.length === 0 && <p className="text-slate-700">{t('dashboard.reportEmpty')}</p>}
        {report.data && report.data.length > 0 && (
          <>
            <ReportTable rows={report.data} />
            <CompletionsChart rows={report.data} />
          </>
        )}
      </section>
    </div>
  );
}

function StatList({ stats }: { stats: Stat[] }) {
  const { t } = useTranslation();
  const labels: Record<StatName, string> = {
    registrations: t('dashboard.stats.registrations'),
    payments: t('dashboard.stats.payments'),
    revenue: t('dashboard.stats.revenue'),
    completions: t('dashboard.stats.completions'),
    final_pass_rate: t('dashboard.stats.final_pass_rate'),
    certificates_issued: t('dashboard.stats.certificates_issued'),
    students_in_progress: t('dashboard.stats.students_in_progress'),
    unpaid_registrations: t('dashboard.stats.unpaid_registrations'),
    failed_deliveries: t('dashboard.stats.failed_deliveries'),
    average_days_to_complete: t('dashboard.stats.average_days_to_complete'),
  };
  const nothingToMeasure: Partial<Record<StatName, string>> = {
    final_pass_rate: t('dashboard.noValue.final_pass_rate'),
    average_days_to_complete: t('dashboard.noValue.average_days_to_complete'),
  };

  function formatValue(stat: Stat & { value: number }): string {
    switch (stat.unit) {
      case 'cents':
        return moneyFormat.format(stat.value / 100);
      case 'percent':
        return `${stat.value.toFixed(1)}%`;
      case 'days':
        return t('dashboard.days', { value: stat.value.toFixed(1) });
      default:
        return integerFormat.format(stat.value);
    }
  }

  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {stats.map((stat) => (
        <div key={stat.name} className="rounded-lg bg-white p-4 shadow">
          <dt className="text-sm font-semibold text-slate-700">{labels[stat.name]}</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900">
            {stat.value === null ? (
              <>
                <span aria-hidden="true">—</span>
                <span className="sr-only">{nothingToMeasure[stat.name] ?? t('dashboard.noValue.other')}</span>
              </>
            ) : (
              formatValue({ ...stat, value: stat.value })
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ReportTable({ rows }: { rows: ReportRow[] }) {
  const { t } = useTranslation();
  const number = 'text-right tabular-nums';
  const count = (key: 'seven_day' | 'thirty_day' | 'sixty_day' | 'ninety_day' | 'total') => (row: ReportRow) =>
    integerFormat.format(row[key]);
  return (
    <DataTable
      variant="boxed"
      rows={rows}
      rowKey={(row) => row.court_id}
      columns={[
        {
          header: t('dashboard.columns.court'),
          rowHeader: true,
          className: 'font-medium',
          cell: (row) => row.court_name,
        },
        { header: t('dashboard.columns.sevenDay'), className: number, cell: count('seven_day') },
        { header: t('dashboard.columns.thirtyDay'), className: number, cell: count('thirty_day') },
        { header: t('dashboard.columns.sixtyDay'), className: number, cell: count('sixty_day') },
        { header: t('dashboard.columns.ninetyDay'), className: number, cell: count('ninety_day') },
        { header: t('dashboard.columns.total'), className: number, cell: count('total') },
      ]}
    />
  );
}
