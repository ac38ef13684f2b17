import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { type Database, openPglite, openPostgres } from './db/client.ts';
import { acquireDataDirLock, DataDirLockedError } from './db/data-dir-lock.ts';
import { migrateDatabase } from './db/migrate.ts';
import { loadContent } from './db/seed.ts';
import { ensureFirstSuperAdmin } from './features/auth/first-admin.ts';
import { systemClock } from './platform/clock.ts';
import { createMailer } from './platform/mail/mailer.ts';
import { PRIVATE_UMASK, restrictTreeToOwner } from './platform/private-files.ts';
import { createPaymentProvider } from './platform/payments/index.ts';
import { startDeliveryWorker } from './features/certificates/delivery-worker.service.ts';
import { startEmailOutboxWorker } from './features/emails/email-outbox-worker.service.ts';
import { startRetentionJob } from './features/retention/retention.service.ts';
import { startReminderJob } from './features/reminders/reminders.service.ts';
import { WEB_DIST } from './plugins/web.ts';
import { setCaching } from './platform/caches.ts';

export interface ServerOptions {
  /** The reviewed content to load (content/ unless a test serves its own copy). */
  contentDir?: string;
}

/** Process entry: loadConfig -> openDb -> migrate -> load content -> buildApp -> listen. */
export async function runServer(options: ServerOptions = {}): Promise<void> {
  const config = loadConfig();
  setCaching(config.caching);
  // DATA_DIR holds court records and set-password links: whatever the server or a library
  // creates there from now on is owner-only (decision 014), and what an earlier version left open
  // is narrowed (openPglite does its own folder).
  process.umask(PRIVATE_UMASK);
  for (const folder of ['outbox', 'backups']) restrictTreeToOwner(path.join(config.dataDir, folder));
  let releaseLock = () => {};
  let database: Database;
  if (config.databaseUrl) {
    database = openPostgres(config.databaseUrl, { max: config.databasePoolSize });
  } else {
    releaseLock = acquireDataDirLock(config.dataDir);
    database = await openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
  }
  await migrateDatabase(database);
  await loadContent(database.db, options.contentDir);
  await ensureFirstSuperAdmin(database.db, config, (message) => console.log(`\n${message}\n`));

  if (config.testPayments && config.env === 'production') {
    console.error(
      '\n*** WARNING: NODE_ENV=production but no Stripe keys are set. ***\n' +
        '*** Card payments go to the BUILT-IN TEST PROVIDER: no real money is taken. ***\n' +
        '*** Set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET. ***\n',
    );
  }
  const payments = createPaymentProvider(config, database.db, systemClock);
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
  });
  const app = await buildApp({ config, db: database.db, clock: systemClock, payments, mailer, webDist: WEB_DIST });
  const deliveries = startDeliveryWorker(database.db, systemClock, config, mailer, app.log);
  const emails = startEmailOutboxWorker(database.db, systemClock, mailer, app.log);
  const retention = startRetentionJob(database.db, systemClock, app.log);
  // Every instance looks for due deadline reminders at start and hourly; the outbox queues each once (decision 059).
  const reminders = startReminderJob(database.db, { clock: systemClock, config }, app.log);
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await reminders.stop();
    await deliveries.stop();
    await emails.stop();
    await retention.stop();
    await app.close();
    await mailer.close();
    await database.close();
    releaseLock();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  console.log(
    `${config.schoolName} is serving ${config.publicUrl} (${database.kind === 'pglite' ? `embedded database in ${path.resolve(config.dataDir)}` : 'PostgreSQL'})`,
  );
}

/** Runs the server, or reports why it cannot start and exits non-zero. */
export function startServer(options: ServerOptions = {}): void {
  runServer(options).catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(1);
  });
}
