import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Clock } from './platform/clock.ts';
import type { Mailer } from './platform/mail/mailer.ts';
import type { PaymentProvider } from './platform/payments/provider.ts';

/** What buildApp is given, and what every feature's routes receive. */
export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** Stripe, or the built-in test provider when no Stripe keys are set (platform/payments). */
  payments: PaymentProvider;
  /** SMTP, or .eml files under DATA_DIR/outbox without SMTP_URL (platform/mail). */
  mailer: Mailer;
  /** Where the built web app lives (main passes WEB_DIST); without it only the API is served. */
  webDist?: string;
}
