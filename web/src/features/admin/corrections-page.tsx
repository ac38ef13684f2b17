import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Correction, correctionsApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { callApi } from '../../lib/api.ts';
import { formatMoment } from '../../lib/dates.ts';
import { errorText } from '../../lib/error-text.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { adminQueries } from './admin-queries.ts';

const STATUSES = ['pending', 'approved', 'rejected'] as const;

/** One request and, while it waits, its Approve and Reject (with the note the student reads). */
function CorrectionItem({ correction, showStudent }: { correction: Correction; showStudent: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const done = () => void queryClient.invalidateQueries({ queryKey: adminQueries.allCorrections() });
  const approve = useMutation({
    mutationFn: () => callApi(correctionsApi.approve, { params: { id: correction.id } }),
    onSettled: done,
  });
  const reject = useMutation({
    mutationFn: () => callApi(correctionsApi.reject, { params: { id: correction.id }, body: { note: note.trim() } }),
    onSettled: done,
  });
  const field = t(`correction.fields.${correction.field}`);
  return (
    <li className="space-y-2 py-4">
      {showStudent && (
        <p className="font-semibold">
          <Link to={`/admin/students/${String(correction.student_id)}`} className="text-blue-800 underline">
            {correction.student_name}
          </Link>{' '}
          · {correction.court_name}
        </p>
      )}
      <p>{t('corrections.change', { field, from: correction.old_value || '—', to: correction.value })}</p>
      <p className="text-sm text-slate-700">
        {t('corrections.reason', { reason: correction.reason, date: formatMoment(correction.created_at) })}
      </p>
      {correction.status === 'approved' && (
        <p className="text-sm text-green-800">
          {t('corrections.approvedAs', { number: correction.certificate_number ?? '' })}
        </p>
      )}
      {correction.status === 'rejected' && (
        <p className="text-sm text-slate-800">{t('corrections.rejectedWith', { note: correction.note ?? '' })}</p>
      )}
      {correction.status === 'pending' && (
        <div className="grid gap-3 sm:grid-cols-[auto_1fr_auto] sm:items-end">
          <Button onClick={() => approve.mutate()} disabled={approve.isPending || reject.isPending}>
            {t('corrections.approve')}
          </Button>
          <TextField
            id={`correction-${String(correction.id)}-note`}
            label={t('corrections.note')}
            value={note}
            maxLength={500}
            onChange={(event) => setNote(event.target.value)}
          />
          <Button
            variant="secondary"
            onClick={() => reject.mutate()}
            disabled={note.trim().length < 3 || approve.isPending || reject.isPending}
          >
            {t('corrections.reject')}
          </Button>
        </div>
      )}
      {(approve.isError || reject.isError) && <Alert>{errorText(approve.error ?? reject.error, t)}</Alert>}
    </li>
  );
}

/** A list of requests: the corrections page's, or one student's on the student detail. */
export function CorrectionsList({ corrections, showStudent }: { corrections: Correction[]; showStudent: boolean }) {
  return (
    <ul className="divide-y divide-slate-200">
      {corrections.map((correction) => (
        <CorrectionItem key={correction.id} correction={correction} showStudent={showStudent} />
      ))}
    </ul>
  );
}

/** Decision 025: a student's requests on the admin student detail (admins only). */
export function StudentCorrectionsSection({ studentId }: { studentId: number }) {
  const { t } = useTranslation();
  const corrections = useQuery(adminQueries.correctionsOfStudent(studentId));
  if (!corrections.data || corrections.data.length === 0) return null;
  return (
    <section aria-labelledby="student-corrections-heading" className="rounded-lg bg-white p-6 shadow">
      <h2 id="student-corrections-heading" className="text-lg font-semibold">
        {t('corrections.studentHeading')}
      </h2>
      <CorrectionsList corrections={corrections.data} showStudent={false} />
    </section>
  );
}

/** Decision 025: every correction request in the admin's scope, by status (waiting ones first). */
export function CorrectionsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const status = STATUSES.find((known) => known === params.get('status')) ?? 'pending';
  const corrections = useQuery(adminQueries.correctionsByStatus(status));
  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold">{t('admin.pages.corrections')}</PageHeading>
      <div className="max-w-xs">
        <SelectField
          label={t('corrections.status')}
          value={status}
          onChange={(event) => setParams(event.target.value === 'pending' ? {} : { status: event.target.value })}
        >
          {STATUSES.map((known) => (
            <option key={known} value={known}>
              {t(`corrections.statuses.${known}`)}
            </option>
          ))}
        </SelectField>
      </div>
      {corrections.isError && <Alert>{errorText(corrections.error, t)}</Alert>}
      {corrections.data?.length === 0 && <p className="text-slate-700">{t('corrections.none')}</p>}
      {corrections.data && corrections.data.length > 0 && (
        <section aria-label={t('corrections.listLabel')} className="rounded-lg bg-white px-6 shadow">
          <CorrectionsList corrections={corrections.data} showStudent />
        </section>
      )}
    </div>
  );
}
