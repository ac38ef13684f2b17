import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getAdminStudent, issueCertificate, markStudentPaid, resendCertificateDelivery } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { useStoredUser } from '../../lib/session.ts';
import { formatShortUsDate } from '../certificates/format-date.ts';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm font-semibold text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  );
}

/** Spec 2 /admin/students/{studentId}: the student's record, and a super_admin's two actions. */
export function StudentDetailPage() {
  const { t } = useTranslation();
  const { studentId = '' } = useParams();
  const id = Number(studentId);
  const user = useStoredUser();
  const isSuperAdmin = user?.type === 'super_admin';
  const detail = useQuery({
    queryKey: ['admin-student', id],
    queryFn: () => callApi(getAdminStudent, { params: { id } }),
    retry: false,
  });
  const [actionError, setActionError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Spec 2: the page reloads after an action.
  async function act(action: () => Promise<unknown>, errorText: string) {
    setBusy(true);
    setActionError(null);
    try {
      await action();
      await detail.refetch();
    } catch (error) {
      setActionError(error instanceof ApiError && error.status === 400 ? error.message : errorText);
    } finally {
      setBusy(false);
    }
  }

  function generate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const completionDate = String(new FormData(event.currentTarget).get('completionDate') ?? '');
    void act(
      () => callApi(issueCertificate, { query: { noEmail: '1' }, body: { studentId: id, completionDate } }),
      t('errors.unexpected'),
    );
  }

  if (detail.isLoading) return <p>{t('common.loading')}</p>;
  if (!detail.data) return <Alert>{t('adminStudent.loadError')}</Alert>;
  const student = detail.data;
  const complete = student.completed_at !== null;
  const latest = student.certificates[0];

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold text-slate-900">
          {student.first_name} {student.last_name}
        </h1>
        <span
          className={`rounded-full px-3 py-1 text-sm font-semibold ${complete ? 'bg-green-100 text-green-900' : 'bg-amber-100 text-amber-900'}`}
        >
          {complete ? t('adminStudent.complete') : t('adminStudent.inProgress')}
        </span>
        {student.archived_at && (
          <span className="rounded-full bg-slate-200 px-3 py-1 text-sm font-semibold text-slate-800">
            {t('adminStudent.archived')}
          </span>
        )}
      </div>
      {actionError && <Alert>{actionError}</Alert>}
      <dl className="grid gap-4 rounded-lg bg-white p-6 shadow sm:grid-cols-2">
        <Field label={t('adminStudent.registered')}>{student.created_at_formatted}</Field>
        <Field label={t('fields.dl_number')}>{student.dl_number}</Field>
        <Field label={t('adminStudent.paid')}>
          {student.payment_at_formatted ??
            (isSuperAdmin ? (
              <Button
                disabled={busy}
                onClick={() =>
                  void act(
                    () => callApi(markStudentPaid, { params: { studentId: id }, body: {} }),
                    t('adminStudent.markPaidError'),
                  )
                }
              >
                {t('adminStudent.markPaid')}
              </Button>
            ) : (
              t('adminStudent.unpaid')
            ))}
        </Field>
        <Field label={t('fields.email')}>{student.email}</Field>
        <Field label={t('fields.court')}>{student.court_name}</Field>
        <Field label={t('fields.dob')}>{student.dob}</Field>
        <Field label={t('fields.address')}>
          {student.address}, {student.city}, {student.state} {student.zip}
        </Field>
        {latest && (
          <Field label={t('adminStudent.certificate')}>
            <a href={latest.file_url} className="font-semibold text-blue-800 underline" download>
              Certificate_Of_Completion.pdf
            </a>
          </Field>
        )}
      </dl>

      {isSuperAdmin && (
        <form
          onSubmit={generate}
          className="flex flex-col gap-3 rounded-lg bg-white p-6 shadow sm:flex-row sm:items-end"
        >
          <div className="flex-1">
            <TextField
              label={t('adminStudent.completionDate')}
              name="completionDate"
              placeholder="January 1, 2023"
              required
            />
          </div>
          <Button type="submit" disabled={busy}>
            {t('adminStudent.generate')}
          </Button>
        </form>
      )}

      <section aria-labelledby="certificates-heading" className="rounded-lg bg-white p-6 shadow">
        <h2 id="certificates-heading" className="text-lg font-semibold">
          {t('adminStudent.certificates')}
        </h2>
        {student.certificates.length === 0 && <p className="mt-2 text-slate-700">{t('adminStudent.noCertificates')}</p>}
        <ul className="mt-2 divide-y divide-slate-200">
          {student.certificates.map((certificate) => (
            <li key={certificate.id} className="py-3">
              <p className="font-semibold">
                {certificate.number} · {formatShortUsDate(certificate.generated_at)}
              </p>
              <ul className="mt-1 space-y-1 text-sm">
                {certificate.deliveries.map((delivery) => (
                  <li key={delivery.id} className="flex flex-wrap items-center gap-2">
                    <span>
                      {t(`adminStudent.recipient.${delivery.recipient}`)} ({delivery.email}):{' '}
                      {t(`adminStudent.delivery.${delivery.status}`)}
                      {delivery.last_error ? ` (${delivery.last_error})` : ''}
                    </span>
                    {delivery.status !== 'queued' && user?.type !== 'clerk' && (
                      <button
                        type="button"
                        className="font-semibold text-blue-800 underline"
                        disabled={busy}
                        onClick={() =>
                          void act(
                            () => callApi(resendCertificateDelivery, { params: { id: delivery.id } }),
                            t('errors.unexpected'),
                          )
                        }
                      >
                        {t('adminStudent.resend')}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="payments-heading" className="rounded-lg bg-white p-6 shadow">
        <h2 id="payments-heading" className="text-lg font-semibold">
          {t('adminStudent.payments')}
        </h2>
        {student.payments.length === 0 && <p className="mt-2 text-slate-700">{t('adminStudent.noPayments')}</p>}
        <ul className="mt-2 space-y-1 text-sm">
          {student.payments.map((payment) => (
            <li key={payment.created_at}>
              {formatShortUsDate(payment.created_at)}: {t(`adminStudent.method.${payment.method}`)}
              {payment.amount_cents !== null ? ` $${(payment.amount_cents / 100).toFixed(2)}` : ''}
              {payment.recorded_by ? ` (${payment.recorded_by})` : ''}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
