import { useTranslation } from '../../lib/i18n.ts';
import { Button } from '../../components/button.tsx';

/** Spec 2: 'Pay ${amount} now', 'Loading...' while submitting, disabled until the provider is ready. */
export function PayButton({ amount, ready, submitting }: { amount: string; ready: boolean; submitting: boolean }) {
  const { t } = useTranslation();
  return (
    <Button type="submit" disabled={!ready || submitting} className="w-full">
      {submitting ? t('common.loading') : t('pay.payNow', { amount })}
    </Button>
  );
}
