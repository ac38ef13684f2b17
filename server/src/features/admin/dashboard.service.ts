import { and, asc, eq, gte, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ReportRow, Stat } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { courts, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Auth } from '../../plugins/session.ts';
import { countCertificatesIssuedBetween, countFailedDeliveries } from '../certificates/certificates.queries.ts';
import { sumPaymentsBetween } from '../payments/payments.queries.ts';
import { countSubmittedAttemptsBetween } from '../quiz/quiz.queries.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Spec 9: the dashboard's totals cover the last 30 days. */
export const STATS_WINDOW_DAYS = 30;
/** Spec 9: the per-court report's windows, in days. */
export const REPORT_WINDOWS_DAYS = [7, 30, 60, 90] as const;
const FINAL_EXAM_CHAPTER = 6;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);
/** A moment within [since, now], both ends included. */
const within = (column: AnyPgColumn, since: Date, now: Date): SQL => and(gte(column, since), lte(column, now))!;
const count = (where?: SQL) => (where ? sql`count(*) filter (where ${where})` : sql`count(*)`).mapWith(Number);
const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/**
 * Spec 2 /admin, 9: what a school owner looks at first. Flows (registrations, payments, revenue,
 * completions, the final's pass rate, certificates) over the last 30 days; states (in progress,
 * unpaid, failed deliveries) as they are now. Archived enrolments count in the flows: they happened.
 */
export async function getAdminStats(db: Db, clock: Clock): Promise<Stat[]> {
  const now = clock.now();
  const since = daysBefore(now, STATS_WINDOW_DAYS);
  const created = within(students.createdAt, since, now);
  const completed = within(students.completedAt, since, now);
  const active = isNull(students.archivedAt);

  const [enrolments, money, finals, issued, failed] = await Promise.all([
    db
      .select({
        registrations: count(created),
        completions: count(completed),
        inProgress: count(and(active, isNotNull(students.paymentAt), isNull(students.completedAt))),
        unpaid: count(and(active, isNull(students.paymentAt), created)),
        // avg over no rows is null (read as null: drizzle decodes only values that are not null).
        averageDays: sql`avg(extract(epoch from ${students.completedAt} - ${students.createdAt}))
          filter (where ${completed}) / 86400`.mapWith((value) => Number(value) as number | null),
      })
      .from(students),
    sumPaymentsBetween(db, { since, until: now }),
    countSubmittedAttemptsBetween(db, { chapterId: FINAL_EXAM_CHAPTER, since, until: now }),
    countCertificatesIssuedBetween(db, { since, until: now }),
    countFailedDeliveries(db),
  ]);
  const s = enrolments[0]!;
  const m = money;
  const f = finals;
  return [
    { name: 'registrations', value: s.registrations, unit: 'count' },
    { name: 'payments', value: m.payments, unit: 'count' },
    { name: 'revenue', value: m.revenueCents, unit: 'cents' },
    { name: 'completions', value: s.completions, unit: 'count' },
    {
      name: 'final_pass_rate',
      value: f.submitted === 0 ? null : oneDecimal((f.passed / f.submitted) * 100),
      unit: 'percent',
    },
    { name: 'certificates_issued', value: issued, unit: 'count' },
    { name: 'students_in_progress', value: s.inProgress, unit: 'count' },
    { name: 'unpaid_registrations', value: s.unpaid, unit: 'count' },
    { name: 'failed_deliveries', value: failed, unit: 'count' },
    {
      name: 'average_days_to_complete',
      value: s.averageDays === null ? null : oneDecimal(s.averageDays),
      unit: 'days',
    },
  ];
}

/**
 * Spec 3 Report rows, 9 windows: completions per court within 7, 30, 60 and 90 days and in total
 * (archived enrolments included), for every court with a completion, by court name. A court-limited
 * admin or clerk gets their own court's row only, zeros included (decision 011).
 */
export async function getAdminReport(
  db: Db,
  { clock, auth }: { clock: Clock; auth: Extract<Auth, { kind: 'staff' }> },
): Promise<ReportRow[]> {
  const now = clock.now();
  const completedWithin = (days: number) => count(within(students.completedAt, daysBefore(now, days), now));
  const [seven, thirty, sixty, ninety] = REPORT_WINDOWS_DAYS.map(completedWithin);
  const total = sql`count(${students.id})`.mapWith(Number);
  const ownCourt = auth.courtId === null ? undefined : eq(courts.id, auth.courtId);
  return (
    db
      .select({
        court_id: courts.id,
        court_name: courts.name,
        seven_day: seven!,
        thirty_day: thirty!,
        sixty_day: sixty!,
        ninety_day: ninety!,
        total,
      })
      .from(courts)
      .leftJoin(students, and(eq(students.courtId, courts.id), isNotNull(students.completedAt)))
      .where(ownCourt)
      .groupBy(courts.id, courts.name)
      // Court-limited staff always get their court's row; everyone else the courts with a completion.
      .having(ownCourt ? undefined : sql`count(${students.id}) > 0`)
      .orderBy(asc(courts.name), asc(courts.id))
  );
}
