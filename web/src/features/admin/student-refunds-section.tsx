import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type AdminStudent, RefundRequestSchema, paymentsApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { TextField } from '../../components/field.tsx';
import { callApi } from '../../lib/api.ts';
import { formatShortDate } from '../../lib/dates.ts';
import { errorText } from '../../lib/error-text.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { adminQueries } from './admin-queries.ts';

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** Cents from what staff typed in dollars ("12", "12.5", "12.50"); null when it is not an amount. */
export function centsFromDollars(typed: string): number | null {
  const match = /^\s*\$?\s*(\d{1,5})(?:\.(\d{1,2}))?\s*$/.exec(typed);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
  return cents > 0 ? cents : null;
}

/** The card money still refundable: what card payments brought less what went back (decision 058). */
function refundableCents(student: AdminStudent): number {
  const paid = student.payments
    .filter((payment) => payment.method === 'card')
    .reduce((sum, payment) => sum + (payment.amount_cents ?? 0), 0);
  const returned = (student.refunds ?? [])
    .filter((refund) => refund.status !== 'failed' && refund.status !== 'canceled')
    .reduce((sum, refund) => sum + refund.amount_cents, 0);
  return Math.max(0, paid - returned);
}

/**
 * Decision 058: the refunds of the student's card payments, and for admins the Refund action:
 * an amount (empty: everything left) and a reason, confirmed before the money goes back.
 */
export function StudentRefundsSection({ student, canRefund }: { student: AdminStudent; canRefund: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refunds = student.refunds ?? [];
  const left = refundableCents(student);
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<'amount' | 'reason' | null>(null);
  const [confirming, setConfirming] = useState<{ amount_cents?: number; reason: string } | null>(null);
  const refund = useMutation({
    mutationFn: (body: { amount_cents?: number; reason: string }) =>
      callApi(paymentsApi.refund, { params: { id: student.id }, body }),
    onSuccess: async () => {
      setConfirming(null);
      setOpen(false);
      setAmount('');
      setReason('');
      await queryClient.invalidateQueries({ queryKey: adminQueries.student(student.id).queryKey });
    },
    onError: () => setConfirming(null),
  });

  function review() {
    const cents = amount.trim() === '' ? undefined : centsFromDollars(amount);
    if (cents === null) {
      setInvalid('amount');
      return;
    }
    const checked = RefundRequestSchema.safeParse({ amount_cents: cents, reason });
    if (!checked.success) {
      setInvalid('reason');
      return;
    }
    setInvalid(null);
    refund.reset();
    setConfirming(checked.data);
  }

  return (
    <section aria-labelledby="refunds-heading" className="rounded-lg bg-white p-6 shadow">
      <h2 id="refunds-heading" className="text-lg font-semibold">
        {t('adminStudent.refunds.heading')}
      </h2>
      {refunds.length === 0 && <p className="mt-2 text-slate-700">{t('adminStudent.refunds.none')}</p>}
      <ul className="mt-2 space-y-1 text-sm">
        {refunds.map((item) => (
          <li key={item.id}>
            {formatShortDate(item.created_at)}: {dollars(item.amount_cents)} (
            {t(`adminStudent.refunds.status.${item.status}`)}){item.reason ? `: ${item.reason}` : ''}
            {` (${item.refunded_by ?? t('adminStudent.refunds.inProvider')})`}
          </li>
        ))}
      </ul>
      {refund.isSuccess && (
        <p role="status" className="mt-2 text-sm text-green-800">
          {t('adminStudent.refunds.done')}
        </p>
      )}
      {canRefund && left > 0 && !open && (
        <div className="mt-4">
          <Button variant="secondary" onClick={() => setOpen(true)}>
            {t('adminStudent.refunds.action')}
          </Button>
        </div>
      )}
      {canRefund && open && (
        <div className="mt-4 space-y-4 rounded-lg border border-slate-200 p-4">
          <TextField
            label={t('adminStudent.refunds.amount')}
            hint={t('adminStudent.refunds.amountHint', { amount: dollars(left) })}
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            error={invalid === 'amount' ? t('adminStudent.refunds.badAmount') : undefined}
          />
          <TextField
            label={t('adminStudent.refunds.reason')}
            value={reason}
            maxLength={500}
            onChange={(event) => setReason(event.target.value)}
            error={invalid === 'reason' ? t('adminStudent.refunds.reasonRequired') : undefined}
          />
          {refund.isError && <Alert>{errorText(refund.error, t)}</Alert>}
          <div className="flex gap-3">
            <Button onClick={review} disabled={refund.isPending}>
              {t('adminStudent.refunds.review')}
            </Button>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t('common.cancel')}
            </Button>
          </div>
        </div>
      )}
      <Dialog
        open={confirming !== null}
        title={t('adminStudent.refunds.confirmTitle')}
        onClose={() => setConfirming(null)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => confirming && refund.mutate(confirming)} disabled={refund.isPending}>
              {refund.isPending ? t('common.loading') : t('adminStudent.refunds.confirm')}
            </Button>
          </>
        }
      >
        <p>
          {t('adminStudent.refunds.confirmText', {
            amount: dollars(confirming?.amount_cents ?? left),
            name: `${student.first_name} ${student.last_name}`,
          })}
        </p>
        {(confirming?.amount_cents ?? left) >= left && !student.completed_at && (
          <p>{t('adminStudent.refunds.closesCourse')}</p>
        )}
      </Dialog>
    </section>
  );
}
