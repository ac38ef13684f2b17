import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { useLocation, useParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import {
  type AdminStudent,
  type ManualPayment,
  FINAL_EXAM_CHAPTER,
  type AdminStudentRow,
  type Endpoint,
  correctionsApi,
  staffMayCall,
  adminStudentsApi,
  certificatesApi,
  identityChecksApi,
  rulesApi,
  paymentsApi,
} from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { useStoredUser } from '../../lib/session.ts';
import { formatDay, formatShortDate, schoolToday } from '../../lib/dates.ts';
import { useFieldErrors, useSchemaForm } from '../../lib/forms.ts';
import { StudentIdentitySection } from './student-identity-section.tsx';
import { StudentPersonalQuestionsSection } from './student-personal-questions-section.tsx';
import { StudentExceptionsSection } from './student-exceptions-section.tsx';
import { StudentCorrectionsSection } from './corrections-page.tsx';
import { StudentContactSection } from './student-contact-section.tsx';
import {
  EMPTY_MANUAL_PAYMENT,
  ManualPaymentFields,
  type ManualPaymentInput,
  toManualPayment,
} from './manual-payment-fields.tsx';
import { StudentSeatTimeSection } from './student-seat-time-section.tsx';
import { staffPolicyRole } from './staff-role.ts';
import { StudentDeadlineField } from '../rules/rules-messages.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { adminQueries } from './admin-queries.ts';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm font-semibold text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  );
}

/** Spec 4 "Mark as paid", with how the money was taken and how much (issue 19). */
function MarkPaidForm({ busy, onMark }: { busy: boolean; onMark: (payment: ManualPayment) => Promise<boolean> }) {
  const { t } = useTranslation();
  const [payment, setPayment] = useState<ManualPaymentInput>(EMPTY_MANUAL_PAYMENT);
  const [invalid, setInvalid] = useState(false);
  return (
    <div className="mt-1 max-w-sm space-y-3">
      <ManualPaymentFields value={payment} onChange={setPayment} invalid={invalid} />
      <Button
        disabled={busy}
        onClick={() => {
          const checked = toManualPayment(payment);
          setInvalid(checked === null);
          if (checked) void onMark(checked);
        }}
      >
        {t('adminStudent.markPaid')}
      </Button>
    </div>
  );
}

/** Issue 7: every submitted quiz and final exam attempt, chapter by chapter, oldest first within each. */
function AttemptsSection({ attempts }: { attempts: AdminStudent['attempts'] }) {
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

/** Spec 2 /admin/students/{studentId}: the student's record, and a super_admin's two actions. */
export function StudentDetailPage() {
  const { t } = useTranslation();
  const { studentId = '' } = useParams();
  const id = Number(studentId);
  const user = useStoredUser();
  // The list passes the row it was opened from (spec 2), so the name shows while the detail loads.
  const passed = (useLocation().state as { student?: AdminStudentRow } | null)?.student;
  // A new certificate with a chosen date is a super_admin's: the issue call is the student's too,
  // so the certificates service holds its staff rule (decision 011), not a role list on the endpoint.
  const isSuperAdmin = user?.type === 'super_admin';
  // The roles each action's endpoint names in the contract, which its server route lets in: the
  // page offers no action the server would refuse.
  const role = staffPolicyRole(user);
  const may = (endpoint: Endpoint) => staffMayCall(endpoint, role);
  const detail = useQuery(adminQueries.student(id));
  const [actionError, setActionError] = useState<string | null>(null);
  // Spec 2: the page reloads after an action (mark paid, resend, generate, unlock...).
  const action = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: () => detail.refetch(),
  });
  const busy = action.isPending;

  /** Runs an action and reloads the detail; whether it succeeded (its failure is said on the page). */
  async function act(run: () => Promise<unknown>, failureText: string): Promise<boolean> {
    setActionError(null);
    try {
      await action.mutateAsync(run);
      return true;
    } catch (error) {
      // A refusal the staff member can act on (a date not understood) says why; anything else the action's own words.
      setActionError(error instanceof ApiError && error.status === 400 ? errorText(error, t) : failureText);
      return false;
    }
  }

  if (detail.isLoading) {
    return (
      <div className="space-y-6">
        {passed?.id === id && (
          <PageHeading className="text-2xl font-bold text-slate-900">
            {`${passed.first_name} ${passed.last_name}`}
          </PageHeading>
        )}
        <p>{t('common.loading')}</p>
      </div>
    );
  }
  if (!detail.data) return <Alert>{t('adminStudent.loadError')}</Alert>;
  const student = detail.data;
  const complete = student.completed_at !== null;
  const latest = student.certificates[0];

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <PageHeading className="text-2xl font-bold text-slate-900">
          {`${student.first_name} ${student.last_name}`}
        </PageHeading>
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
        <Field label={t('adminStudent.registered')}>{formatShortDate(student.created_at)}</Field>
        <Field label={t('fields.dl_number')}>{student.dl_number}</Field>
        <Field label={t('adminStudent.paid')}>
          {(student.payment_at && formatShortDate(student.payment_at)) ??
            (may(paymentsApi.markPaidManually) ? (
              <MarkPaidForm
                busy={busy}
                onMark={(payment) =>
                  act(
                    () => callApi(paymentsApi.markPaidManually, { params: { studentId: id }, body: payment }),
                    t('adminStudent.markPaidError'),
                  )
                }
              />
            ) : (
              t('adminStudent.unpaid')
            ))}
        </Field>
        {student.enrolled_by && <Field label={t('adminStudent.enrolledBy')}>{student.enrolled_by}</Field>}
        <Field label={t('fields.email')}>{student.email}</Field>
        <Field label={t('fields.court')}>{student.court_name}</Field>
        {student.rules_profile && (
          <Field label={t('rules.adminProfile')}>
            {t('rules.adminProfileValue', {
              name: student.rules_profile.name,
              version: student.rules_profile.version,
            })}
          </Field>
        )}
        <StudentDeadlineField studentId={id} courtDueDate={student.court_due_date ?? null} />
        {student.case_number && <Field label={t('adminStudent.caseNumber')}>{student.case_number}</Field>}
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

      {/* An archived enrolment is kept as it was: the server refuses to readdress it. */}
      {may(adminStudentsApi.updateContact) && !student.archived_at && (
        <StudentContactSection key={`${student.email} ${student.address}`} student={student} />
      )}

      {isSuperAdmin && (
        <GenerateCertificateForm
          complete={complete}
          busy={busy}
          onGenerate={(completionDate) =>
            act(
              () =>
                callApi(certificatesApi.issue, { query: { noEmail: '1' }, body: { studentId: id, completionDate } }),
              t('errors.unexpected'),
            )
          }
        />
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
                {certificate.number} · {formatShortDate(certificate.generated_at)}
              </p>
              <ul className="mt-1 space-y-1 text-sm">
                {certificate.deliveries.map((delivery) => (
                  <li key={delivery.id} className="flex flex-wrap items-center gap-2">
                    <span>
                      {t(`adminStudent.recipient.${delivery.recipient}`)} ({delivery.email}):{' '}
                      {t(`adminStudent.delivery.${delivery.status}`)}
                      {delivery.last_error ? ` (${delivery.last_error})` : ''}
                    </span>
                    {(delivery.status === 'sent' || delivery.status === 'failed') &&
                      may(certificatesApi.resendDelivery) && (
                        <button
                          type="button"
                          className="font-semibold text-blue-800 underline"
                          disabled={busy}
                          onClick={() =>
                            void act(
                              () => callApi(certificatesApi.resendDelivery, { params: { id: delivery.id } }),
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

      {may(correctionsApi.list) && <StudentCorrectionsSection studentId={id} />}

      <AttemptsSection attempts={student.attempts} />

      <StudentSeatTimeSection seatTime={student.seat_time} />

      <StudentExceptionsSection
        exceptions={student.exceptions}
        canGrant={may(rulesApi.grantException) && !student.archived_at}
        busy={busy}
        onGrant={(grant) =>
          act(() => callApi(rulesApi.grantException, { params: { id }, body: grant }), t('errors.unexpected'))
        }
      />

      <StudentIdentitySection
        identity={student.identity}
        canUnlock={may(identityChecksApi.unlock)}
        busy={busy}
        onUnlock={() =>
          void act(() => callApi(identityChecksApi.unlock, { params: { id } }), t('identity.admin.unlockError'))
        }
      />

      <StudentPersonalQuestionsSection
        personal={student.identity?.personal}
        canReset={may(identityChecksApi.resetPersonalQuestions) && !student.archived_at}
        busy={busy}
        onReset={(reason) =>
          act(
            () => callApi(identityChecksApi.resetPersonalQuestions, { params: { id }, body: { reason } }),
            t('personalQuestions.admin.failed'),
          )
        }
      />

      <section aria-labelledby="payments-heading" className="rounded-lg bg-white p-6 shadow">
        <h2 id="payments-heading" className="text-lg font-semibold">
          {t('adminStudent.payments')}
        </h2>
        {student.payments.length === 0 && <p className="mt-2 text-slate-700">{t('adminStudent.noPayments')}</p>}
        <ul className="mt-2 space-y-1 text-sm">
          {student.payments.map((payment) => (
            <li key={payment.created_at}>
              {formatShortDate(payment.created_at)}: {t(`adminStudent.method.${payment.method}`)}
              {payment.manual_method ? ` (${t(`manualPayment.methods.${payment.manual_method}`)})` : ''}
              {payment.amount_cents !== null ? ` $${(payment.amount_cents / 100).toFixed(2)}` : ''}
              {payment.recorded_by ? ` (${payment.recorded_by})` : ''}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** A completion date: a day of the calendar, not after today on the school's. */
const GenerateSchema = z.object({
  completionDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((day) => day <= schoolToday()),
});

/**
 * Spec 2: a super_admin generates a certificate with a completion date, chosen with the browser's
 * date picker (issue 16) and said back in the reader's language; the server issues a certificate
 * only for a finished course (issue 13).
 */
function GenerateCertificateForm({
  complete,
  busy,
  onGenerate,
}: {
  complete: boolean;
  busy: boolean;
  onGenerate: (completionDate: string) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const form = useSchemaForm(GenerateSchema, { completionDate: '' });
  const errorOf = useFieldErrors(form);
  const chosen = useWatch({ control: form.control, name: 'completionDate' });
  const hint = !complete
    ? t('adminStudent.generateNeedsCompletion')
    : /^\d{4}-\d{2}-\d{2}$/.test(chosen)
      ? formatDay(chosen)
      : undefined;
  return (
    <form
      noValidate
      onSubmit={(event) =>
        void form.handleSubmit(async ({ completionDate }) => {
          // Spec 2: the page reloads afterwards, so the form starts empty again.
          if (await onGenerate(completionDate)) form.reset();
        })(event)
      }
      className="flex flex-col gap-3 rounded-lg bg-white p-6 shadow sm:flex-row sm:items-start"
    >
      <div className="flex-1">
        <TextField
          label={t('adminStudent.completionDate')}
          type="date"
          max={schoolToday()}
          disabled={!complete}
          hint={hint}
          error={errorOf('completionDate', t('adminStudent.completionDateInvalid'))}
          {...form.register('completionDate')}
        />
      </div>
      {/* Submitting from the first click, before the request starts: a double click issues one certificate. */}
      <Button type="submit" className="sm:mt-6" disabled={busy || form.formState.isSubmitting || !complete}>
        {t('adminStudent.generate')}
      </Button>
    </form>
  );
}
