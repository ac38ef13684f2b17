import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type MarkStateFiling,
  STATE_FILING_CSV_COLUMNS,
  type StateFiling,
  type StateFilingRow,
  type UsStateCode,
  US_STATES,
  US_STATE_CODES,
  stateFilingsApi,
} from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatDay, formatMoment } from '../../lib/dates.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { downloadCsv, rowsToCsv } from './report-csv.ts';
import { adminQueries } from './admin-queries.ts';

const stateName = (code: string) => US_STATES.find(([state]) => state === code)?.[1] ?? code;

/** Saves a batch's certificates as the documented CSV (docs/state-filing.md). */
async function downloadFiling(filing: StateFiling): Promise<void> {
  const { rows } = await callApi(stateFilingsApi.filing, { params: { id: filing.id } });
  downloadCsv(
    rowsToCsv(STATE_FILING_CSV_COLUMNS, rows),
    `state-filing-${filing.state}-${String(filing.id)}-${filing.exported_at.slice(0, 10)}.csv`,
  );
}

/** The state's answer to an exported batch: filed with a confirmation reference, or rejected with a reason. */
function OutcomeForm({ filing, onDone }: { filing: StateFiling; onDone: () => void }) {
  const { t } = useTranslation();
  const [reference, setReference] = useState('');
  const [reason, setReason] = useState('');
  const mark = useMutation({
    mutationFn: (body: MarkStateFiling) => callApi(stateFilingsApi.mark, { params: { id: filing.id }, body }),
    onSuccess: onDone,
  });
  const id = String(filing.id);
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <form
        className="space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (reference.trim() !== '') mark.mutate({ outcome: 'filed', confirmation_reference: reference.trim() });
        }}
      >
        <TextField
          id={`filing-${id}-reference`}
          label={t('stateFilings.reference')}
          value={reference}
          maxLength={100}
          onChange={(event) => setReference(event.target.value)}
        />
        <Button type="submit" disabled={mark.isPending || reference.trim() === ''}>
          {t('stateFilings.markFiled')}
        </Button>
      </form>
      <form
        className="space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (reason.trim().length >= 3) mark.mutate({ outcome: 'rejected', reason: reason.trim() });
        }}
      >
        <TextField
          id={`filing-${id}-reason`}
          label={t('stateFilings.rejectionReason')}
          value={reason}
          maxLength={500}
          onChange={(event) => setReason(event.target.value)}
        />
        <Button type="submit" variant="secondary" disabled={mark.isPending || reason.trim().length < 3}>
          {t('stateFilings.markRejected')}
        </Button>
      </form>
      {mark.isError && <Alert>{errorText(mark.error, t)}</Alert>}
    </div>
  );
}

/**
 * Decision 024: certificates a rules profile holds for the state's report, per state: the ones
 * waiting (never filed, or in a rejected batch), an export of all of them as one batch (its CSV),
 * and each batch's answer from the state. Super admins and admins over all courts only.
 */
export function StateFilingsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const requested = params.get('state') ?? undefined;
  const state = US_STATE_CODES.find((code) => code === requested);
  const overview = useQuery(adminQueries.stateFilings(state));
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminQueries.allStateFilings() });
  const exportBatch = useMutation({
    mutationFn: async (code: UsStateCode) => {
      const filing = await callApi(stateFilingsApi.export, { body: { state: code } });
      await downloadFiling(filing);
      return filing;
    },
    onSettled: refresh,
  });
  const data = overview.data;
  const shown = US_STATE_CODES.find((code) => code === data?.state) ?? null;

  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold">{t('admin.pages.stateFilings')}</PageHeading>
      <p className="max-w-prose text-slate-700">{t('stateFilings.intro')}</p>
      {overview.isLoading && <p>{t('common.loading')}</p>}
      {overview.isError && <Alert>{errorText(overview.error, t)}</Alert>}
      {data && data.states.length === 0 && <p className="text-slate-700">{t('stateFilings.none')}</p>}
      {data && shown !== null && (
        <>
          <div className="max-w-xs">
            <SelectField
              label={t('stateFilings.state')}
              value={shown}
              onChange={(event) => setParams({ state: event.target.value })}
            >
              {data.states.map((code) => (
                <option key={code} value={code}>
                  {stateName(code)}
                </option>
              ))}
            </SelectField>
          </div>

          <section aria-labelledby="waiting-heading" className="rounded-lg bg-white p-6 shadow">
            <h2 id="waiting-heading" className="text-lg font-semibold">
              {t('stateFilings.waitingTitle', { count: data.waiting.length, state: stateName(shown) })}
            </h2>
            {data.waiting.length === 0 ? (
              <p className="mt-2 text-slate-700">{t('stateFilings.nothingWaiting')}</p>
            ) : (
              <>
                <DataTable<StateFilingRow>
                  variant="plain"
                  caption={t('stateFilings.waitingCaption')}
                  rows={data.waiting}
                  rowKey={(row) => row.certificate_id}
                  columns={[
                    {
                      header: t('stateFilings.columns.number'),
                      cell: (row) => row.certificate_number,
                      rowHeader: true,
                    },
                    { header: t('stateFilings.columns.name'), cell: (row) => `${row.first_name} ${row.last_name}` },
                    { header: t('stateFilings.columns.court'), cell: (row) => row.court },
                    { header: t('stateFilings.columns.caseNumber'), cell: (row) => row.case_number || '—' },
                    { header: t('stateFilings.columns.completed'), cell: (row) => formatDay(row.completion_date) },
                    { header: t('stateFilings.columns.status'), cell: (row) => t(`stateFilings.status.${row.status}`) },
                  ]}
                />
                <div className="mt-4">
                  <Button onClick={() => exportBatch.mutate(shown)} disabled={exportBatch.isPending}>
                    {exportBatch.isPending ? t('common.loading') : t('stateFilings.export')}
                  </Button>
                </div>
              </>
            )}
            {exportBatch.isError && <Alert>{errorText(exportBatch.error, t)}</Alert>}
          </section>

          <section aria-labelledby="batches-heading" className="rounded-lg bg-white p-6 shadow">
            <h2 id="batches-heading" className="text-lg font-semibold">
              {t('stateFilings.batchesTitle')}
            </h2>
            {data.filings.length === 0 && <p className="mt-2 text-slate-700">{t('stateFilings.noBatches')}</p>}
            <ul className="mt-3 divide-y divide-slate-200">
              {data.filings.map((filing) => (
                <li key={filing.id} className="space-y-3 py-4">
                  <h3 className="font-semibold">
                    {t('stateFilings.batch', {
                      id: filing.id,
                      count: filing.certificates,
                      date: formatMoment(filing.exported_at),
                    })}
                  </h3>
                  <p className="text-sm text-slate-700">
                    {filing.status === 'filed'
                      ? t('stateFilings.filedOn', {
                          date: formatMoment(filing.filed_at ?? ''),
                          reference: filing.confirmation_reference ?? '',
                        })
                      : filing.status === 'rejected'
                        ? t('stateFilings.rejectedOn', {
                            date: formatMoment(filing.rejected_at ?? ''),
                            reason: filing.rejection_reason ?? '',
                          })
                        : t('stateFilings.exportedBy', { name: filing.exported_by })}
                  </p>
                  <Button variant="secondary" onClick={() => void downloadFiling(filing)}>
                    {t('stateFilings.download', { id: filing.id })}
                  </Button>
                  {filing.status === 'exported' && <OutcomeForm filing={filing} onDone={() => void refresh()} />}
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </div>
  );
}
