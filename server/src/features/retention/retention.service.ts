import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { selectRawRows } from '../../db/raw-rows.ts';
import type { Clock } from '../../platform/clock.ts';
import { purgeDeadSessions } from '../../plugins/session.ts';
import { purgeExpiredFailedGuesses } from '../auth/throttle.ts';
import { purgeDeadResetTokens } from '../registration/registration.service.ts';
import { purgeDeadSetPasswordLinks } from '../staff/set-password-links.ts';
import { type PeriodicJob, startPeriodicJob } from '../../platform/periodic-job.ts';

/**
 * Credentials and throttle counters that can no longer do anything are deleted (decision 014):
 * they are not records of the school (students, payments, certificates and the audit log are,
 * and nothing here touches them) but keys and ephemera that only add to what a leak exposes.
 */

export interface PurgeResult {
  /** False when another instance was purging at that moment: this run left it to that one. */
  ran: boolean;
  sessions: number;
  loginFailures: number;
  resetTokens: number;
  setPasswordLinks: number;
}

export const RETENTION_INTERVAL_MS = 24 * 3600_000;

// Every instance runs the job; the first to take this lock does the work, the others skip.
const RETENTION_LOCK = 'retention:purge-expired-records';

/**
 * Deletes sessions that ended or expired, sign-in failures older than the throttle's window (the
 * only place they are counted), and reset-course tokens and set-password links that were used or
 * expired. Safe to run twice or on two instances at once: the second finds nothing left.
 */
export async function purgeExpiredRecords(db: Db, clock: Clock): Promise<PurgeResult> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [lock] = await selectRawRows<{ locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(hashtext(${RETENTION_LOCK})) as locked`,
    );
    if (lock?.locked !== true) {
      return { ran: false, sessions: 0, loginFailures: 0, resetTokens: 0, setPasswordLinks: 0 };
    }
    // Each table's owner deletes its own dead rows (decision 017); one transaction, one lock.
    const purgedSessions = await purgeDeadSessions(tx, now);
    const purgedFailures = await purgeExpiredFailedGuesses(tx, now);
    const purgedResetTokens = await purgeDeadResetTokens(tx, now);
    const purgedLinks = await purgeDeadSetPasswordLinks(tx, now);
    return {
      ran: true,
      sessions: purgedSessions,
      loginFailures: purgedFailures,
      resetTokens: purgedResetTokens,
      setPasswordLinks: purgedLinks,
    };
  });
}

/**
 * Purges once at start (a server restarted more often than daily would otherwise never run it)
 * and then every day. Stopped with the server; a round already under way is awaited.
 */
export function startRetentionJob(
  db: Db,
  clock: Clock,
  log: { info: (object: object, message: string) => void; error: (object: object, message: string) => void },
  intervalMs = RETENTION_INTERVAL_MS,
): PeriodicJob {
  return startPeriodicJob(
    async () => {
      const result = await purgeExpiredRecords(db, clock);
      if (result.ran) log.info({ purged: result }, 'expired sessions, sign-in failures and links purged');
    },
    intervalMs,
    (error) => {
      log.error({ error: error instanceof Error ? error.message : String(error) }, 'retention purge failed');
    },
  );
}
