import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import { schoolDetails } from '../../platform/email-templates/email.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import type { ReceiptSettings } from './payment-receipts.ts';

/** Where a payment that needs a person (a refund, a provider that did not answer) is reported. */
export interface PaymentLog {
  warn: (object: object, message: string) => void;
}

/** What the payment flows need beside the database. */
export interface PaymentContext {
  clock: Clock;
  provider: PaymentProvider;
  log: PaymentLog;
  /** What a payment's or a refund's receipt names (decision 058). */
  receipts: ReceiptSettings;
}

/** The payment flows' context for a request: the app's provider and clock, the request's log, the school. */
export function paymentContextOf(
  deps: { clock: Clock; payments: PaymentProvider; config: Config },
  log: PaymentLog,
): PaymentContext {
  return {
    clock: deps.clock,
    provider: deps.payments,
    log,
    receipts: { school: schoolDetails(deps.config), timeZone: deps.config.schoolTimeZone },
  };
}
