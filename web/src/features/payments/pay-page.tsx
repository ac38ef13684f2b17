import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getPaymentAmount, logout } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { callApi } from '../../lib/api.ts';
import { clearStoredUser } from '../../lib/stored-user.ts';
import { formatAmount } from './format-amount.ts';

function readStudentId(state: unknown): number | null {
  const id = (state as { studentId?: unknown } | null)?.studentId;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * Spec 2 /pay. Any existing session is signed out, and the studentId comes from navigation
 * state. The card form arrives with the payments issue; until then the page shows the amount.
 */
export function PayPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const studentId = readStudentId(location.state);

  useEffect(() => {
    clearStoredUser();
    void callApi(logout).catch(() => undefined);
  }, []);

  const amount = useQuery({
    queryKey: ['payment-amount', studentId],
    queryFn: () => callApi(getPaymentAmount, { params: { studentId: studentId ?? 0 } }),
    enabled: studentId !== null,
    retry: false,
  });

  if (studentId === null) {
    return (
      <div className="mx-auto max-w-md space-y-4">
        <h1 className="text-2xl font-bold">{t('pay.title')}</h1>
        <Alert tone="info">{t('pay.noStudent')}</Alert>
        <p className="flex gap-4">
          <Link to="/register" className="font-semibold text-blue-800 underline">
            {t('pay.registerLink')}
          </Link>
          <Link to="/login" className="font-semibold text-blue-800 underline">
            {t('pay.loginLink')}
          </Link>
        </p>
      </div>
    );
  }

  const price = amount.data ? formatAmount(amount.data.paymentAmount) : null;
  return (
    <div className="mx-auto max-w-md space-y-4">
      <h1 className="text-2xl font-bold">{t('pay.title')}</h1>
      <p className="text-slate-700">{t('pay.intro')}</p>
      {amount.isError && <Alert>{t('pay.amountError')}</Alert>}
      {price && (
        <div className="space-y-4 rounded-lg bg-white p-6 shadow">
          <p className="text-lg">
            {t('pay.courseFee')} <strong>${price}</strong>
          </p>
          <Alert tone="info">{t('pay.notYetAvailable')}</Alert>
          <Button disabled className="w-full">
            {t('pay.payNow', { amount: price })}
          </Button>
        </div>
      )}
    </div>
  );
}
