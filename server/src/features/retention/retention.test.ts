import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedGuesses, resetTokens, sessions, staffPasswordTokens } from '../../db/schema.ts';
import { buildTestApp, TestClock, type TestApp } from '../../testing/build-test-app.ts';
import { createCourseStudent, onlyCertificateOf, recordCourseCompletion } from '../../testing/certificates.ts';
import { archiveStudent, recordPaymentAt } from '../../testing/dashboard-data.ts';
import { createStaff, createStudent } from '../../testing/factories.ts';
import { countRows } from '../../testing/rows.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { LOGIN_WINDOW_MS } from '../auth/throttle.ts';
import { purgeExpiredRecords, startRetentionJob } from './retention.service.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('the retention purge', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const at = (offsetMs: number) => new Date(t.clock.now().getTime() + offsetMs);

  it('deletes ended and expired sessions, old sign-in failures and used or expired links, and keeps the live ones', async () => {
    const student = await createStudent(t.db);
    const member = await createStaff(t.db);
    await t.db.insert(sessions).values([
      { tokenHash: 'session-expired', studentId: student.id, expiresAt: at(-1000) },
      { tokenHash: 'session-ended', staffId: member.id, expiresAt: at(HOUR), endedAt: at(-HOUR) },
      { tokenHash: 'session-live', studentId: student.id, expiresAt: at(HOUR) },
    ]);
    await t.db.insert(failedGuesses).values([
      { keyHash: 'failures-old', failedAt: [at(-LOGIN_WINDOW_MS - 2 * MINUTE), at(-LOGIN_WINDOW_MS - MINUTE)] },
      { keyHash: 'failures-recent', failedAt: [at(-LOGIN_WINDOW_MS - MINUTE), at(-MINUTE)] },
    ]);
    await t.db.insert(resetTokens).values([
      { tokenHash: 'reset-used', studentId: student.id, expiresAt: at(10 * MINUTE), usedAt: at(-MINUTE) },
      { tokenHash: 'reset-expired', studentId: student.id, expiresAt: at(-MINUTE) },
      { tokenHash: 'reset-valid', studentId: student.id, expiresAt: at(10 * MINUTE) },
    ]);
    await t.db.insert(staffPasswordTokens).values([
      { tokenHash: 'link-used', staffId: member.id, expiresAt: at(HOUR), usedAt: at(-MINUTE) },
      { tokenHash: 'link-expired', staffId: member.id, expiresAt: at(-MINUTE) },
      { tokenHash: 'link-valid', staffId: member.id, expiresAt: at(HOUR) },
    ]);

    const result = await purgeExpiredRecords(t.db, t.clock);

    expect(result).toEqual({ ran: true, sessions: 2, loginFailures: 1, resetTokens: 2, setPasswordLinks: 2 });
    const left = async <T>(rows: Promise<T[]>) => (await rows).map((row) => Object.values(row as object)[0]);
    expect(await left(t.db.select({ key: sessions.tokenHash }).from(sessions))).toEqual(['session-live']);
    expect(await left(t.db.select({ key: failedGuesses.keyHash }).from(failedGuesses))).toEqual(['failures-recent']);
    expect(await left(t.db.select({ key: resetTokens.tokenHash }).from(resetTokens))).toEqual(['reset-valid']);
    expect(await left(t.db.select({ key: staffPasswordTokens.tokenHash }).from(staffPasswordTokens))).toEqual([
      'link-valid',
    ]);
  });

  it('keeps every student, payment, certificate and audit entry, however old', async () => {
    const finished = await createCourseStudent(t);
    await recordPaymentAt(t.db, finished.id, t.clock.now(), { method: 'card', amountCents: 2995 });
    await recordCourseCompletion(t, finished.id);
    const certificate = await onlyCertificateOf(t.db, finished.id);
    const archived = await createStudent(t.db);
    await archiveStudent(t.db, archived.id, t.clock.now());
    const member = await createStaff(t.db);
    await recordAudit(t.db, t.clock, {
      staffId: member.id,
      action: 'issue_certificate',
      entityType: 'certificate',
      entityId: certificate.id,
      before: null,
      after: { number: certificate.number },
    });
    const tables = ['students', 'payments', 'certificates', 'certificate_deliveries', 'audit_log', 'staff'];
    const counts = async () => Promise.all(tables.map((table) => countRows(t.db, table)));
    const before = await counts();
    expect(before.every((n) => n > 0)).toBe(true);

    const tenYearsLater = new TestClock(new Date(t.clock.now().getTime() + 10 * 365 * 24 * HOUR));
    const result = await purgeExpiredRecords(t.db, tenYearsLater);

    expect(result.ran).toBe(true);
    expect(await counts()).toEqual(before);
    expect(await onlyCertificateOf(t.db, finished.id)).toEqual(certificate);
  });

  it('is harmless run twice, and two runs at once (two instances) neither fail nor purge anything twice', async () => {
    const student = await createStudent(t.db);
    await t.db.insert(sessions).values([
      { tokenHash: 'twice-expired-1', studentId: student.id, expiresAt: at(-1000) },
      { tokenHash: 'twice-expired-2', studentId: student.id, expiresAt: at(-1000) },
    ]);

    const runs = await Promise.all([purgeExpiredRecords(t.db, t.clock), purgeExpiredRecords(t.db, t.clock)]);

    expect(runs.some((run) => run.ran)).toBe(true);
    expect(runs[0]!.sessions + runs[1]!.sessions).toBe(2);
    const again = await purgeExpiredRecords(t.db, t.clock);
    expect(again).toEqual({ ran: true, sessions: 0, loginFailures: 0, resetTokens: 0, setPasswordLinks: 0 });
    const remaining = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sessions)
      .where(inArray(sessions.tokenHash, ['twice-expired-1', 'twice-expired-2']));
    expect(remaining[0]?.n).toBe(0);
  });

  it('runs once when the server starts, logs only how many rows went, and stops with the server', async () => {
    const student = await createStudent(t.db);
    await t.db.insert(sessions).values([
      { tokenHash: 'job-expired', studentId: student.id, expiresAt: at(-1000) },
      { tokenHash: 'job-live', studentId: student.id, expiresAt: at(HOUR) },
    ]);
    const logged: { object: object; message: string }[] = [];
    const log = {
      info: (object: object, message: string) => logged.push({ object, message }),
      error: (object: object, message: string) => logged.push({ object, message }),
    };

    const job = startRetentionJob(t.db, t.clock, log, HOUR);
    await job.stop();

    const left = await t.db
      .select({ tokenHash: sessions.tokenHash })
      .from(sessions)
      .where(inArray(sessions.tokenHash, ['job-expired', 'job-live']));
    expect(left).toEqual([{ tokenHash: 'job-live' }]);
    expect(logged).toEqual([
      {
        object: { purged: { ran: true, sessions: 1, loginFailures: 0, resetTokens: 0, setPasswordLinks: 0 } },
        message: 'expired sessions, sign-in failures and links purged',
      },
    ]);
  });
});
