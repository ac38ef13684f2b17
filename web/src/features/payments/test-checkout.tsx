import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import { paymentsApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { TextField } from '../../components/field.tsx';
import { ApiError, callApi, detailsOf } from '../../lib/api.ts';
import { PayButton } from './pay-button.tsx';
import { describePaymentError } from './payment-messages.ts';

/**
 * The built-in test provider's card form (no Stripe keys set): a clearly labelled test-mode form
 * whose server answers in Stripe's shapes. Stripe's test cards decide the outcome.
 */
export function TestCheckout({
  clientSecret,
  paymentIntentId,
  amount,
}: {
  clientSecret: string;
  paymentIntentId: string;
  amount: string;
}) {
  const { t, i18n } = useTranslation();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSubmitting(true);
    setError(null);
    try {
      const result = await callApi(paymentsApi.confirmTest, {
        params: { id: paymentIntentId },
        body: {
          client_secret: clientSecret,
          card_number: String(form.get('card_number')),
          expiry: String(form.get('expiry')),
          cvc: String(form.get('cvc')),
        },
      });
      // As Stripe's confirmPayment does: back to /pay with the intent in the query string.
      window.location.assign(result.redirect_url);
    } catch (caught) {
      // Decision 042: this PaymentIntent was canceled (new price, paid by hand, course replaced), or
      // the course was already paid for when the money arrived: say so, not "check your card".
      if (detailsOf(caught, 'PAYMENT_INTENT_CANCELED')) {
        setError(t('pay.intentCanceled'));
        setSubmitting(false);
        return;
      }
      if (caught instanceof ApiError && caught.code === 'ALREADY_PAID') {
        setError(t('pay.paidTwice'));
        setSubmitting(false);
        return;
      }
      // The provider's own words for a refused card, as Stripe.js shows them (spec 8); in another
      // language the words for its code, as Stripe.js would show them in that language.
      const refusal = detailsOf(caught, 'CARD_DECLINED') ?? detailsOf(caught, 'CARD_DETAILS_INVALID');
      const providerWords = refusal && caught instanceof Error ? caught.message : '';
      const message =
        refusal && i18n.language !== 'en'
          ? t(`pay.cardErrors.${refusal.provider_code}`, { defaultValue: providerWords })
          : providerWords;
      setError(describePaymentError({ type: refusal?.type, message }, t('pay.unexpected')));
      setSubmitting(false);
    }
  }

  return (
    <form
      onSubmit={(event) => void pay(event)}
      // A refusal is about the card that was sent: once the student edits the card, it no longer applies.
      onChange={() => setError(null)}
      className="space-y-4"
      aria-describedby="test-mode-note"
    >
      <div
        id="test-mode-note"
        className="rounded-md border-2 border-dashed border-amber-500 bg-amber-50 p-3 text-sm text-amber-950"
      >
        <p className="font-bold">{t('pay.testMode.title')}</p>
        <p>{t('pay.testMode.body')}</p>
      </div>
      <TextField
        label={t('pay.card.number')}
        name="card_number"
        inputMode="numeric"
        autoComplete="cc-number"
        required
      />
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label={t('pay.card.expiry')}
          name="expiry"
          placeholder={t('pay.card.expiryPlaceholder')}
          autoComplete="cc-exp"
          required
        />
        <TextField label={t('pay.card.cvc')} name="cvc" inputMode="numeric" autoComplete="cc-csc" required />
      </div>
      {error && <Alert>{error}</Alert>}
      <PayButton amount={amount} ready submitting={submitting} />
    </form>
  );
}
