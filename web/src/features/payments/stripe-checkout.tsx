import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
// The pure entry loads Stripe.js only when loadStripe is called, never on import.
import { loadStripe } from '@stripe/stripe-js/pure';
import type { StripeElementLocale } from '@stripe/stripe-js';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { Alert } from '../../components/alert.tsx';
import { PayButton } from './pay-button.tsx';
import { describePaymentError } from './payment-messages.ts';

const stripeLoaders = new Map<string, ReturnType<typeof loadStripe>>();
/** Stripe.js, loaded once per publishable key (only on the payment page, only with Stripe keys). */
export function getStripe(publishableKey: string): ReturnType<typeof loadStripe> {
  let loader = stripeLoaders.get(publishableKey);
  if (!loader) {
    loader = loadStripe(publishableKey);
    stripeLoaders.set(publishableKey, loader);
  }
  return loader;
}

function StripeForm({ amount }: { amount: string }) {
  const { t } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setSubmitting(true);
    setError(null);
    // Spec 7: confirmPayment redirects back to /pay on our own host.
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${window.location.origin}/pay` },
    });
    // Only reached when there is no redirect: an error to show.
    // Decision 042: Stripe refuses a canceled PaymentIntent (new price, paid by hand, course replaced).
    setError(
      result.error.code === 'payment_intent_unexpected_state'
        ? t('pay.intentCanceled')
        : describePaymentError(result.error, t('pay.unexpected')),
    );
    setSubmitting(false);
  }

  return (
    <form onSubmit={(event) => void pay(event)} className="space-y-4">
      <PaymentElement onReady={() => setReady(true)} />
      {error && <Alert>{error}</Alert>}
      <PayButton amount={amount} ready={ready && stripe !== null && elements !== null} submitting={submitting} />
    </form>
  );
}

/** Stripe's Payment Element for the PaymentIntent the server created. */
export function StripeCheckout({
  publishableKey,
  clientSecret,
  amount,
}: {
  publishableKey: string;
  clientSecret: string;
  amount: string;
}) {
  const { i18n } = useTranslation();
  const stripePromise = useMemo(() => getStripe(publishableKey), [publishableKey]);
  return (
    <Elements
      stripe={stripePromise}
      options={{ clientSecret, locale: i18n.language as StripeElementLocale }}
      key={i18n.language}
    >
      <StripeForm amount={amount} />
    </Elements>
  );
}
