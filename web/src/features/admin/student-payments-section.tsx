import type { AdminStudent } from '@ts/contract';
import { formatShortDate } from '../../lib/dates.ts';
import { useTranslation } from '../../lib/i18n.ts';

/** Every payment of the enrolment: when, how, how much and, for one taken by hand, by whom. */
export function StudentPaymentsSection({ payments }: { payments: AdminStudent['payments'] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="payments-heading" className="rounded-lg bg-white p-6 shadow">
      <h2 id="payments-heading" className="text-lg font-semibold">
        {t('adminStudent.payments')}
      </h2>
      {payments.length === 0 && <p className="mt-2 text-slate-700">{t('adminStudent.noPayments')}</p>}
      <ul className="mt-2 space-y-1 text-sm">
        {payments.map((payment) => (
          <li key={payment.created_at}>
            {formatShortDate(payment.created_at)}: {t(`adminStudent.method.${payment.method}`)}
            {payment.manual_method ? ` (${t(`manualPayment.methods.${payment.manual_method}`)})` : ''}
            {payment.amount_cents !== null ? ` $${(payment.amount_cents / 100).toFixed(2)}` : ''}
            {payment.recorded_by ? ` (${payment.recorded_by})` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
