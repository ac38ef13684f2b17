import { eq, sql } from 'drizzle-orm';
import type { RulesProfile } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { certificateCounters, certificates, counties, courts, students } from '../../db/schema.ts';
import { parseJsonColumn } from '../../db/subquery-columns.ts';
import { type Clock, localDate } from '../../platform/clock.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import { getPinnedProfile } from '../rules/rules.service.ts';
import { buildCertificateSnapshot, type CertificateSubject } from './certificate-snapshot.ts';

/**
 * Issuing a certificate (decision 010): the year's gap-free number, the immutable snapshot of what
 * it certifies, the row. Every certificate, a completion's, a staff member's or a correction's
 * reissue, is made here; its emails are queued by the caller (queueCertificateDeliveries).
 */

export interface IssueContext {
  clock: Clock;
  config: Config;
}

export interface CertificateToIssue {
  studentId: number;
  source: 'completion' | 'admin' | 'correction';
  /** The completion date it certifies; absent, the day the student completed the course (or today), in the school's zone. */
  completionDate?: string;
  staffId?: number;
  /** A correction's reissue (decision 025): the certificate it replaces, printed as such. */
  replaces?: { id: number; number: string };
}

/** A certificate as issueCertificate answers it, with what its emails need. */
export interface IssuedCertificate {
  id: number;
  number: string;
  /** False when the enrolment already held its completion certificate: that one is answered, nothing is issued. */
  created: boolean;
  /** Where its emails may go: the student's address and the court clerk's (null: none on file). */
  addresses: { student: string; court: string | null };
  /** The certificate rules of the profile it was issued under (decision 012): who receives it. */
  rules: RulesProfile['certificate'];
}

/**
 * Issues a certificate inside the caller's transaction: reads the student and their court as they
 * are now, takes the year's next number, and writes the certificate with its snapshot, built here
 * (buildCertificateSnapshot). The PDF is rendered from the snapshot later (ensureCertificatePdf),
 * by the delivery worker or the first download.
 *
 * A completion's certificate is issued once per enrolment: when the enrolment holds one, it is
 * answered (`created: false`) and no number is taken. The caller holds the student's row until
 * the transaction ends (lockStudentRow, or its own update of the row, as the course's completion
 * does), so that read is current and two issues of one completion cannot both pass it; the
 * partial unique index on completion certificates is the last guard. The year's counter row stays
 * locked from the number until the caller's transaction ends: few statements should follow.
 */
export async function issueCertificate(
  tx: Db,
  context: IssueContext,
  input: CertificateToIssue,
): Promise<IssuedCertificate> {
  const holder = await readCertificateHolder(tx, input.studentId);
  if (!holder) throw notFound('No such student.');
  const profile = await getPinnedProfile(tx, holder.profile);
  const found = { addresses: holder.addresses, rules: profile.rules.certificate };
  const existing = input.source === 'completion' ? holder.completionCertificate : null;
  if (existing) return { ...existing, created: false, ...found };

  const now = context.clock.now();
  const { schoolTimeZone } = context.config;
  const issuedOn = localDate(now, schoolTimeZone);
  const completionDate = input.completionDate ?? localDate(holder.completedAt ?? now, schoolTimeZone);
  const number = await takeCertificateNumber(tx, Number(issuedOn.slice(0, 4)));
  const snapshot = buildCertificateSnapshot({
    number,
    subject: holder.subject,
    profile,
    completionDate,
    issuedAt: now,
    replaces: input.replaces?.number,
  });
  const [row] = await tx
    .insert(certificates)
    .values({
      number,
      studentId: input.studentId,
      source: input.source,
      issuedByStaffId: input.staffId ?? null,
      completionDate,
      snapshot,
      rulesProfileId: profile.id,
      rulesProfileVersion: profile.version,
      routing: found.rules.routing,
      retainUntil: addYears(issuedOn, found.rules.retentionYears),
      issuedAt: now,
      replacesId: input.replaces?.id ?? null,
    })
    .returning({ id: certificates.id });
  if (!row) throw new Error('certificate was not saved');
  return { id: row.id, number, created: true, ...found };
}

/**
 * A student as a certificate is issued to them: what it certifies, where its emails go, the rules
 * profile their enrolment is pinned to, and the enrolment's completion certificate if it has one.
 * One prepared statement: every student who passes reads it once.
 */
async function readCertificateHolder(db: Db, studentId: number) {
  const [row] = await prepareOnce(db, 'read_certificate_holder', (database) =>
    database
      .select({
        firstName: students.firstName,
        lastName: students.lastName,
        dlNumber: students.dlNumber,
        dob: students.dob,
        caseNumber: students.caseNumber,
        email: students.email,
        completedAt: students.completedAt,
        profileId: students.rulesProfileId,
        profileVersion: students.rulesProfileVersion,
        courtName: courts.name,
        courtState: counties.state,
        courtEmail: courts.email,
        completionCertificate: sql<{
          id: number;
          number: string;
        } | null>`(select json_build_object('id', c.id, 'number', c.number)
        from ${certificates} c where c.student_id = ${students}.id and c.source = 'completion')`.mapWith(
          (value: unknown) => parseJsonColumn(value) as { id: number; number: string } | null,
        ),
      })
      .from(students)
      .innerJoin(courts, eq(courts.id, students.courtId))
      .innerJoin(counties, eq(counties.id, courts.countyId))
      .where(eq(students.id, sql.placeholder('studentId')))
      .prepare('read_certificate_holder'),
  ).execute({ studentId });
  if (!row) return undefined;
  const subject: CertificateSubject = {
    firstName: row.firstName,
    lastName: row.lastName,
    dlNumber: row.dlNumber,
    dob: row.dob,
    caseNumber: row.caseNumber,
    courtName: row.courtName,
    courtState: row.courtState,
  };
  return {
    subject,
    addresses: { student: row.email, court: row.courtEmail },
    completedAt: row.completedAt,
    profile: { id: row.profileId, version: row.profileVersion },
    completionCertificate: row.completionCertificate,
  };
}

/**
 * The year's next certificate number, TS-<year>-<the counter, padded to at least six digits>
 * (decision 010). The counter's row stays locked until the transaction ends: issuers of the year
 * wait for each other, and a rolled-back issue gives its number back, so the sequence has no gaps.
 */
async function takeCertificateNumber(tx: Db, year: number): Promise<string> {
  const [counter] = await tx
    .insert(certificateCounters)
    .values({ year, lastValue: 1 })
    .onConflictDoUpdate({
      target: certificateCounters.year,
      set: { lastValue: sql`${certificateCounters.lastValue} + 1` },
    })
    .returning({ lastValue: certificateCounters.lastValue });
  if (!counter) throw new Error('no certificate number was taken');
  return `TS-${String(year)}-${String(counter.lastValue).padStart(6, '0')}`;
}

/** The calendar day `years` after an ISO date (29 February becomes 28 February in a common year). */
function addYears(isoDate: string, years: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year + years, month - 1, day));
  if (target.getUTCDate() !== day) target.setUTCDate(0);
  return target.toISOString().slice(0, 10);
}

export const courseNotComplete = () =>
  new AppError('COURSE_NOT_COMPLETE', 'A certificate is issued once the final exam is passed.');
