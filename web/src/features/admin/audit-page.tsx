import { formatMoment } from '../../lib/dates.ts';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import type { AuditEntry } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { ApiError } from '../../lib/api.ts';
import { PageHeading } from '../../components/page-heading.tsx';
import { adminQueries } from './admin-queries.ts';

/** A record as it was or became: compact JSON, wrapped to fit a narrow screen. */
function Snapshot({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span aria-hidden="true">—</span>;
  return (
    <pre className="max-w-xs font-mono text-xs break-all whitespace-pre-wrap text-slate-800">
      {JSON.stringify(value)}
    </pre>
  );
}

function What({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const label = `${t(`audit.entities.${entry.entity_type}`, { defaultValue: entry.entity_type })}${
    entry.entity_id === null ? '' : ` #${String(entry.entity_id)}`
  }`;
  if (entry.entity_id !== null && entry.entity_type === 'student') {
    return (
      <Link to={`/admin/students/${String(entry.entity_id)}`} className="text-blue-800 underline">
        {label}
      </Link>
    );
  }
  if (entry.entity_id !== null && entry.entity_type === 'question') {
    return (
      <Link to={`/admin/modify-questions/${String(entry.entity_id)}`} className="text-blue-800 underline">
        {label}
      </Link>
    );
  }
  return <>{label}</>;
}

/** The audit log (decision 011: a super_admin's), newest first, a page at a time. */
export function AuditPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = Number(searchParams.get('page') ?? '1');
  const page = Number.isInteger(requested) && requested >= 1 ? requested : 1;
  const log = useQuery(adminQueries.auditLog(page));
  const goTo = (next: number) => setSearchParams(next === 1 ? {} : { page: String(next) });
  const lastPage = log.data ? Math.max(1, Math.ceil(log.data.total / log.data.pageSize)) : 1;

  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold">{t('admin.pages.audit')}</PageHeading>
      {log.isLoading && <p>{t('common.loading')}</p>}
      {log.isError && (
        <Alert>
          {log.error instanceof ApiError && log.error.status === 403 ? t('audit.forbidden') : t('audit.loadError')}
        </Alert>
      )}
      {log.data && log.data.rows.length === 0 && <p className="text-slate-700">{t('audit.empty')}</p>}
      {log.data && log.data.rows.length > 0 && (
        <section aria-labelledby="audit-heading" className="rounded-lg bg-white p-4 shadow sm:p-6">
          <h2 id="audit-heading" className="text-lg font-semibold">
            {t('audit.entries', { total: log.data.total })}
          </h2>
          <DataTable
            variant="roomy"
            rows={log.data.rows}
            rowKey={(entry) => entry.id}
            columns={[
              {
                header: t('audit.when'),
                className: 'whitespace-nowrap',
                cell: (entry) => <time dateTime={entry.at}>{formatMoment(entry.at)}</time>,
              },
              {
                header: t('audit.who'),
                cell: (entry) => (
                  <>
                    <span className="font-semibold text-slate-900">{entry.staff_name}</span>
                    <span className="block text-slate-700">{entry.staff_username}</span>
                  </>
                ),
              },
              {
                header: t('audit.action'),
                cell: (entry) => t(`audit.actions.${entry.action}`, { defaultValue: entry.action }),
              },
              { header: t('audit.what'), className: 'whitespace-nowrap', cell: (entry) => <What entry={entry} /> },
              { header: t('audit.before'), cell: (entry) => <Snapshot value={entry.before} /> },
              { header: t('audit.after'), cell: (entry) => <Snapshot value={entry.after} /> },
            ]}
          />
          <nav aria-label={t('audit.pagination')} className="mt-4 flex flex-wrap items-center gap-3">
            {page > 1 && (
              <Button variant="secondary" onClick={() => goTo(page - 1)}>
                {t('audit.previous')}
              </Button>
            )}
            <p className="text-slate-700">{t('audit.page', { page, pages: lastPage })}</p>
            {page < lastPage && (
              <Button variant="secondary" onClick={() => goTo(page + 1)}>
                {t('audit.next')}
              </Button>
            )}
          </nav>
        </section>
      )}
      {log.data && log.data.rows.length === 0 && page > 1 && (
        <Button variant="secondary" onClick={() => goTo(1)}>
          {t('audit.first')}
        </Button>
      )}
    </div>
  );
}
