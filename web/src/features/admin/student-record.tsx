import { useState } from 'react';
import type { AdminStudent, ManualPayment } from '@ts/contract';
import { Button } from '../../components/button.tsx';
import { formatShortDate } from '../../lib/dates.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { StudentDeadlineField } from '../rules/rules-messages.tsx';
import {
  EMPTY_MANUAL_PAYMENT,
  ManualPaymentFields,
  type ManualPaymentInput,
  toManualPayment,
} from './manual-payment-fields.tsx';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm font-semibold text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  );
}

/** Spec 4 "Mark as paid", with how the money was taken and how much (decision 026). */
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

/**
 * Spec 2: the student's record on the detail page (registration, licence, payment, court, rules,
 * deadline, address, latest certificate); an unpaid student's Paid line is the Mark as paid form
 * for those who may mark it.
 */
export function StudentRecord({
  student,
  canMarkPaid,
  busy,
  onMarkPaid,
}: {
  student: AdminStudent;
  canMarkPaid: boolean;
  busy: boolean;
  onMarkPaid: (payment: ManualPayment) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const latest = student.certificates[0];
  return (
    <dl className="grid gap-4 rounded-lg bg-white p-6 shadow sm:grid-cols-2">
      <Field label={t('adminStudent.registered')}>{formatShortDate(student.created_at)}</Field>
      <Field label={t('fields.dl_number')}>{student.dl_number}</Field>
      <Field label={t('adminStudent.paid')}>
        {(student.payment_at && formatShortDate(student.payment_at)) ??
          (canMarkPaid ? <MarkPaidForm busy={busy} onMark={onMarkPaid} /> : t('adminStudent.unpaid'))}
      </Field>
      {student.enrolled_by && <Field label={t('adminStudent.enrolledBy')}>{student.enrolled_by}</Field>}
      <Field label={t('fields.email')}>{student.email}</Field>
      {student.language && (
        <Field label={t('adminStudent.contact.language')}>{t(`language.${student.language}`)}</Field>
      )}
      <Field label={t('fields.court')}>{student.court_name}</Field>
      {student.rules_profile && (
        <Field label={t('rules.adminProfile')}>
          {t('rules.adminProfileValue', {
            name: student.rules_profile.name,
            version: student.rules_profile.version,
          })}
        </Field>
      )}
      <StudentDeadlineField studentId={student.id} courtDueDate={student.court_due_date ?? null} />
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
  );
}
