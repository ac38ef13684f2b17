import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../clock.ts';
import type { PaymentProvider } from './provider.ts';
import { createStripeProvider } from './stripe-provider.ts';
import { createTestPaymentProvider } from './test-provider.ts';

/** Stripe when its keys are set; otherwise the built-in test provider. */
export function createPaymentProvider(config: Config, db: Db, clock: Clock): PaymentProvider {
  const { secretKey, publishableKey, webhookSecret } = config.stripe;
  if (secretKey && publishableKey) return createStripeProvider({ secretKey, publishableKey, webhookSecret });
  return createTestPaymentProvider(db, clock);
}
