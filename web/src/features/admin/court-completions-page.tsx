import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Court, type CourtCompletion, courtApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { type TFunction, useTranslation } from '../../lib/i18n.ts';
import { useCourts } from '../../lib/queries.ts';
import { useStoredUser } from '../../lib/session.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { downloadCsv, rowsToCsv } from './report-csv.ts';
import { staffPolicyRole } from './staff-role.ts';
import { CourtCompletionsTable } from './court-completions-table.tsx';
import { adminQueries, type CourtCompletionFilters } from './admin-queries.ts';

/** New completions appear while the page is open: it asks again this often (decision 025). */
export const COURT_COMPLETIONS_REFRESH_MS = 5000;

/** The CSV's columns, in order: the row as the API answers it. */
const CSV_COLUMNS = [
  'certificate_number',
  'last_name',
  'first_name',
  'dl_number',
  'case_number',
  'completed_at',
  'court_email_sent_at',
  'acknowledged_at',
] as const satisfies readonly (keyof CourtCompletion)[];

/** Which rows an "Acknowledge selected" could not record. */
class AcknowledgeFailed extends Error {
  constructor(readonly numbers: readonly string[]) {
    super(`not acknowledged: ${numbers.join(', ')}`);
  }
}

function acknowledgeErrorText(error: unknown, t: TFunction): string {
  return error instanceof AcknowledgeFailed
    ? t('court.acknowledgeFailed', { numbers: error.numbers.join(', ') })
    : errorText(error, t);
}

/** Every row the filters match, page by page, for the CSV. */
async function fetchAllRows(filters: CourtCompletionFilters): Promise<CourtCompletion[]> {
  const rows: CourtCompletion[] = [];
  for (let page = 1; ; page++) {
    const answer = await callApi(courtApi.completions, { query: { ...filters, page } });
    rows.push(...answer.rows);
    if (rows.length >= answer.total || answer.rows.length === 0) return rows;
  }
}

/** The page's filters and page number, as the address holds them (a reload keeps them). */
function useCourtCompletionsAddress(ownCourt: boolean) {
  const [params, setParams] = useSearchParams();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const search = params.get('search') ?? '';
  const court = ownCourt ? '' : (params.get('court') ?? '');
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const debouncedSearch = useDebouncedValue(search.trim(), 300);
  const filters: CourtCompletionFilters = {
    ...(/^\d{4}-\d{2}-\d{2}$/.test(from) ? { from } : {}),
    ...(/^\d{4}-\d{2}-\d{2}$/.test(to) ? { to } : {}),
    ...(debouncedSearch ? { search: debouncedSearch } : {}),
    ...(/^\d+$/.test(court) ? { courtId: Number(court) } : {}),
  };

  function change(next: Record<string, string>) {
    setParams((current) => {
      const updated = new URLSearchParams(current);
      for (const [key, value] of Object.entries(next)) {
        if (value === '' || (key === 'page' && value === '1')) updated.delete(key);
        else updated.set(key, value);
      }
      return updated;
    });
  }

  return { from, to, search, court, page, filters, change };
}

/** Acknowledges rows one by one, then asks for the completions again. */
function useAcknowledge(onAcknowledged: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    // Each row on its own: one that fails (a certificate replaced meanwhile) does not stop the rest.
    mutationFn: async (numbers: readonly string[]) => {
      const failed: string[] = [];
      for (const number of numbers) {
        try {
          await callApi(courtApi.acknowledge, { params: { number } });
        } catch {
          failed.push(number);
        }
      }
      if (failed.length > 0) throw new AcknowledgeFailed(failed);
    },
    onSuccess: onAcknowledged,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminQueries.allCourtCompletions() }),
  });
}

/** Every row the filters match, as a CSV download; whether it is being made. */
function useExportCsv(filters: CourtCompletionFilters): { exporting: boolean; exportCsv: () => Promise<void> } {
  const [exporting, setExporting] = useState(false);
  async function exportCsv() {
    setExporting(true);
    try {
      const rows = await fetchAllRows(filters);
      downloadCsv(rowsToCsv(CSV_COLUMNS, rows), `court-completions-${new Date().toISOString().slice(0, 10)}.csv`);
    } finally {
      setExporting(false);
    }
  }
  return { exporting, exportCsv };
}

/** The filters: a court (for admins over every court), a search, and a range of completion days. */
function CourtCompletionsFilters({
  ownCourt,
  courts,
  court,
  search,
  from,
  to,
  change,
}: {
  ownCourt: boolean;
  courts: Court[];
  court: string;
  search: string;
  from: string;
  to: string;
  change: (next: Record<string, string>) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4 rounded-lg bg-white p-4 shadow sm:grid-cols-2 lg:grid-cols-4">
      {!ownCourt && (
        <SelectField
          label={t('court.court')}
          value={court}
          onChange={(event) => change({ court: event.target.value, page: '1' })}
        >
          <option value="">{t('court.allCourts')}</option>
          {courts.map((listed) => (
            <option key={listed.id} value={listed.id}>
              {listed.name}
            </option>
          ))}
        </SelectField>
      )}
      <TextField
        type="search"
        label={t('court.search')}
        hint={t('court.searchHint')}
        value={search}
        onChange={(event) => change({ search: event.target.value, page: '1' })}
      />
      <TextField
        type="date"
        label={t('court.from')}
        value={from}
        onChange={(event) => change({ from: event.target.value, page: '1' })}
      />
      <TextField
        type="date"
        label={t('court.to')}
        value={to}
        onChange={(event) => change({ to: event.target.value, page: '1' })}
      />
    </div>
  );
}

/**
 * The court's completions (decision 025), newest first, kept up to date while open. A court's own
 * staff acknowledge receipt (a row, or every selected row); admins over every court pick a court
 * and read. Filters live in the address so a reload keeps them.
 */
export function CourtCompletionsPage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const role = staffPolicyRole(user);
  const ownCourt = role === 'court_clerk' || role === 'court_admin';
  const courts = useCourts();
  const { from, to, search, court, page, filters, change } = useCourtCompletionsAddress(ownCourt);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const completions = useQuery({
    ...adminQueries.courtCompletions(filters, page),
    refetchInterval: COURT_COMPLETIONS_REFRESH_MS,
  });
  const acknowledge = useAcknowledge(() => setSelected(new Set()));
  const { exporting, exportCsv } = useExportCsv(filters);

  const data = completions.data;
  const rows = data?.rows ?? [];
  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold">{t('admin.pages.courtCompletions')}</PageHeading>
      <p className="max-w-prose text-slate-700">{ownCourt ? t('court.introOwn') : t('court.introSchool')}</p>
      <CourtCompletionsFilters
        ownCourt={ownCourt}
        courts={courts.data ?? []}
        court={court}
        search={search}
        from={from}
        to={to}
        change={change}
      />

      {completions.isError && <Alert>{errorText(completions.error, t)}</Alert>}
      {completions.isLoading && <p>{t('common.loading')}</p>}
      {data && (
        <section aria-labelledby="completions-heading" className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="completions-heading" role="status" className="text-lg font-semibold">
              {t('court.count', { count: data.total })}
            </h2>
            <div className="flex flex-wrap gap-2">
              {ownCourt && (
                <Button
                  onClick={() => acknowledge.mutate([...selected])}
                  disabled={selected.size === 0 || acknowledge.isPending}
                >
                  {t('court.acknowledgeSelected', { count: selected.size })}
                </Button>
              )}
              <Button variant="secondary" onClick={() => void exportCsv()} disabled={exporting || data.total === 0}>
                {exporting ? t('common.loading') : t('court.exportCsv')}
              </Button>
            </div>
          </div>
          {acknowledge.isError && <Alert>{acknowledgeErrorText(acknowledge.error, t)}</Alert>}
          {rows.length === 0 ? (
            <p className="text-slate-700">{t('court.none')}</p>
          ) : (
            <CourtCompletionsTable
              rows={rows}
              ownCourt={ownCourt}
              selected={selected}
              onSelect={setSelected}
              acknowledging={acknowledge.isPending}
              onAcknowledge={(numbers) => acknowledge.mutate(numbers)}
            />
          )}
          {lastPage > 1 && <CompletionsPages page={page} lastPage={lastPage} change={change} />}
        </section>
      )}
    </div>
  );
}

/** Previous and Next through the pages of completions. */
function CompletionsPages({
  page,
  lastPage,
  change,
}: {
  page: number;
  lastPage: number;
  change: (next: Record<string, string>) => void;
}) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('court.pages')} className="flex items-center gap-3">
      <Button variant="secondary" disabled={page <= 1} onClick={() => change({ page: String(page - 1) })}>
        {t('court.previous')}
      </Button>
      <span>{t('court.page', { page, pages: lastPage })}</span>
      <Button variant="secondary" disabled={page >= lastPage} onClick={() => change({ page: String(page + 1) })}>
        {t('court.next')}
      </Button>
    </nav>
  );
}
