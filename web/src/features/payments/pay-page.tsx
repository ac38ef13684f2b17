import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { type PaymentProviderInfo, authApi, paymentsApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { ApiError, callApi } from '../../lib/api.ts';
import { usePublicConfig } from '../../lib/queries.ts';
import { clearStoredUser } from '../../lib/stored-user.ts';
import { formatAmount } from './format-amount.ts';
import { returnStatusMessageKey } from './payment-messages.ts';
import { paymentQueries } from './payment-queries.ts';
import { TestCheckout } from './test-checkout.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { RulesSummaryList, useCourtRules } from '../rules/rules-summary.tsx';

// Stripe's React parts are fetched only when the school takes cards through Stripe: the test
// provider, the default run and every page but this never load them (decision 021).
const StripeCheckout = lazy(async () => ({ default: (await import('./stripe-checkout.tsx')).StripeCheckout }));

/** A positive whole id from navigation state (`studentId`, and the court's as `courtId`), else null. */
function readStateId(state: unknown, key: 'studentId' | 'courtId'): number | null {
  const id = (state as Record<string, unknown> | null)?.[key];
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * Spec 2 and 4, /pay. Any existing session is signed out. The studentId comes from navigation
 * state; after the provider's redirect the client secret comes from the query string instead.
 */
export function PayPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [search] = useSearchParams();
  const config = usePublicConfig();
  const studentId = readStateId(location.state, 'studentId');
  const courtId = readStateId(location.state, 'courtId');
  const returned = search.get('payment_intent_client_secret');
  const returnedIntentId = search.get('payment_intent');

  useEffect(() => {
    clearStoredUser();
    void callApi(authApi.logout).catch(() => undefined);
  }, []);

  let content;
  if (!config.data) {
    content = <p>{t('common.loading')}</p>;
  } else if (returned && returnedIntentId) {
    content = <PaymentReturn provider={config.data.payments} clientSecret={returned} intentId={returnedIntentId} />;
  } else if (studentId !== null) {
    content = <Checkout provider={config.data.payments} studentId={studentId} courtId={courtId} />;
  } else {
    content = (
      <>
        <Alert tone="info">{t('pay.noStudent')}</Alert>
        <p className="flex gap-4">
          <Link to="/register" className="font-semibold text-blue-800 underline">
            {t('pay.registerLink')}
          </Link>
          <Link to="/login" className="font-semibold text-blue-800 underline">
            {t('pay.loginLink')}
          </Link>
        </p>
      </>
    );
  }
  return (
    <div className="mx-auto max-w-md space-y-4">
      <PageHeading className="text-2xl font-bold">{t('pay.title')}</PageHeading>
      {content}
    </div>
  );
}

function Checkout({
  provider,
  studentId,
  courtId,
}: {
  provider: PaymentProviderInfo;
  studentId: number;
  courtId: number | null;
}) {
  const { t } = useTranslation();
  // Decision 021: what the court requires, said once more before the card is asked for.
  const rules = useCourtRules(courtId);
  const amount = useQuery(paymentQueries.amount(studentId));
  const intent = useMutation({ mutationFn: () => callApi(paymentsApi.createIntent, { body: { studentId } }) });
  const requested = useRef(false);
  useEffect(() => {
    // One request per visit (StrictMode mounts twice in development); the server reuses an open intent anyway.
    if (requested.current) return;
    requested.current = true;
    intent.mutate();
  }, [intent]);

  // Back from the thank-you page (or a second tab) after paying: the course is paid, which is
  // good news, not an error to retry.
  if (intent.error instanceof ApiError && intent.error.code === 'ALREADY_PAID') {
    return (
      <>
        <Alert tone="success">{t('pay.alreadyPaid')}</Alert>
        <p>
          <Link to="/login" className="font-semibold text-blue-800 underline">
            {t('thankYou.loginLink')}
          </Link>
        </p>
      </>
    );
  }
  const price = amount.data ? formatAmount(amount.data.paymentAmount) : null;
  return (
    <>
      <p className="text-slate-700">{t('pay.intro')}</p>
      {rules.data && <RulesSummaryList rules={rules.data} heading={t('rulesSummary.heading')} id="court-rules" />}
      {amount.isError && <Alert>{t('pay.amountError')}</Alert>}
      {intent.isError && <Alert>{t('pay.intentError')}</Alert>}
      {price && (
        <div className="space-y-4 rounded-lg bg-white p-6 shadow">
          <p className="text-lg">
            {t('pay.courseFee')} <strong>${price}</strong>
          </p>
          {intent.data && provider.provider === 'stripe' && provider.publishableKey && (
            <Suspense fallback={<p>{t('common.loading')}</p>}>
              <StripeCheckout
                publishableKey={provider.publishableKey}
                clientSecret={intent.data.clientSecret}
                amount={price}
              />
            </Suspense>
          )}
          {intent.data && provider.provider === 'test' && (
            <TestCheckout
              clientSecret={intent.data.clientSecret}
              paymentIntentId={intent.data.paymentIntentId}
              amount={price}
            />
          )}
          {!intent.data && !intent.isError && <p>{t('common.loading')}</p>}
        </div>
      )}
    </>
  );
}

async function retrieveStatus(provider: PaymentProviderInfo, clientSecret: string, intentId: string): Promise<string> {
  if (provider.provider === 'stripe' && provider.publishableKey) {
    const { getStripe } = await import('./stripe-checkout.tsx');
    const stripe = await getStripe(provider.publishableKey);
    if (!stripe) throw new Error('Stripe.js did not load');
    const { paymentIntent } = await stripe.retrievePaymentIntent(clientSecret);
    return paymentIntent?.status ?? 'unknown';
  }
  const intent = await callApi(paymentsApi.retrieveTest, {
    params: { id: intentId },
    query: { client_secret: clientSecret },
  });
  return intent.status;
}

/** Spec 4: the provider's status on return decides the message; success marks paid, then /thank-you. */
function PaymentReturn({
  provider,
  clientSecret,
  intentId,
}: {
  provider: PaymentProviderInfo;
  clientSecret: string;
  intentId: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [status, setStatus] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      const current = await retrieveStatus(provider, clientSecret, intentId).catch(() => 'unknown');
      setStatus(current);
      if (current !== 'succeeded') return;
      try {
        await callApi(paymentsApi.markPaid, { body: { paymentIntent: intentId } });
        await navigate('/thank-you', { replace: true });
      } catch {
        await navigate('/login', { replace: true });
      }
    })();
  }, [provider, clientSecret, intentId, navigate]);

  if (status === null) return <p>{t('common.loading')}</p>;
  return (
    <div className="space-y-4">
      <Alert tone={status === 'succeeded' || status === 'processing' ? 'info' : 'error'}>
        {t(returnStatusMessageKey(status))}
      </Alert>
      {status !== 'succeeded' && (
        <p>
          <Link to="/login" className="font-semibold text-blue-800 underline">
            {t('pay.tryAgainLink')}
          </Link>
        </p>
      )}
    </div>
  );
}
