import { eq, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { selectRawRows } from '../../db/raw-rows.ts';
import { certificateCounters, certificateDeliveries, certificates, courts, students } from '../../db/schema.ts';
import { parseJsonColumn } from '../../db/subquery-columns.ts';
import { type Clock, localDate, US_DATE_FORMAT } from '../../platform/clock.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import type { ProfileRef } from '../../plugins/session.ts';
import { getPinnedProfile } from '../rules/rules.service.ts';
import { courseNameFor, describeRulesProfile } from './certificate-snapshot.ts';

/**
 * Issuing a certificate (decision 010): the year's gap-free number, the immutable snapshot of what
 * it certifies, and its deliveries. Every certificate, a completion's, a staff member's or a
 * correction's reissue, is made here.
 */

/** The calendar day `years` after an ISO date (29 February becomes 28 February in a common year). */
function addYears(isoDate: string, years: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year + years, month - 1, day));
  if (target.getUTCDate() !== day) target.setUTCDate(0);
  return target.toISOString().slice(0, 10);
}

export interface IssueContext {
  clock: Clock;
  config: Config;
}

/**
 * Whose certificate, under which rules profile (decision 012: it decides who receives it and how
 * long it is kept). What it certifies about the student and their court is read by the issuing
 * statement itself (certificateIssueSteps): a final pass reads nothing before its grading
 * statement for it (decision 027).
 */
export interface CertificateHolder {
  studentId: number;
  profile: ProfileRef;
}

/** A student as a certificate is issued to them, and their enrolment's completion certificate if it exists. */
export async function readCertificateHolder(
  db: Db,
  studentId: number,
): Promise<(CertificateHolder & { completionCertificate: { id: number; number: string } | null }) | undefined> {
  const [holder] = await prepareOnce(db, 'read_certificate_holder', (database) =>
    database
      .select({
        studentId: students.id,
        profile: { id: students.rulesProfileId, version: students.rulesProfileVersion },
        completionCertificate: sql<{
          id: number;
          number: string;
        } | null>`(select json_build_object('id', c.id, 'number', c.number)
        from ${certificates} c where c.student_id = ${students}.id and c.source = 'completion')`.mapWith(
          (value: unknown) => parseJsonColumn(value) as { id: number; number: string } | null,
        ),
      })
      .from(students)
      .where(eq(students.id, sql.placeholder('studentId')))
      .prepare('read_certificate_holder'),
  ).execute({ studentId });
  return holder;
}

export interface CertificateToIssue {
  studentId: number;
  source: 'completion' | 'admin' | 'correction';
  /** The completion date it certifies; absent, the day the student completed the course (or today), in the school's zone. */
  completionDate?: string;
  staffId?: number;
  email: boolean;
  /** A correction's reissue (decision 025): the certificate it replaces, printed as such. */
  replaces?: { id: number; number: string };
}

/**
 * The statements that issue a certificate, as common table expressions to run inside one
 * statement (decision 027: each statement is a round trip): the student and court it certifies, read
 * by the statement itself; the year's gap-free number (decision 010); the certificate with it and
 * its immutable snapshot; and one delivery per recipient (the student and, when the profile
 * routes it there, the court). They run only for the rows of `gate` (a query: one row to issue,
 * none not to) and an existing student, so the counter never advances without a certificate; a
 * completion's only when the enrolment has none yet. `inserted` answers the new certificate's id
 * and number. The counter row every issue of the year waits on is held until the statement's
 * transaction commits: whoever runs these makes them the transaction's last statement.
 */
export async function certificateIssueSteps(
  db: Db,
  context: IssueContext,
  /** The enrolment's rules profile: who receives it and how long it is kept (decision 012). */
  profile: ProfileRef,
  input: CertificateToIssue,
  gate: SQL,
): Promise<SQL> {
  const now = context.clock.now();
  const { schoolTimeZone } = context.config;
  const issuedOn = localDate(now, schoolTimeZone);
  const pinned = await getPinnedProfile(db, profile);
  const { routing, retentionYears } = pinned.rules.certificate;
  const year = Number(issuedOn.slice(0, 4));
  // The snapshot's fields are CertificateSnapshot's (the PDF is rendered from it): the name as
  // "first last", the date of birth as MM/DD/YYYY, a case number only when there is one.
  const completionDate =
    input.completionDate === undefined
      ? sql`(coalesce(subject.completed_at, ${now.toISOString()}::timestamptz) at time zone ${schoolTimeZone}::text)::date`
      : sql`${input.completionDate}::date`;
  const replaces = input.replaces ? { replaces: input.replaces.number } : {};
  return sql`subject as (
      select s.first_name || ' ' || s.last_name as student_name, s.dl_number, to_char(s.dob, ${US_DATE_FORMAT}::text) as date_of_birth,
        nullif(s.case_number, '') as case_number, s.email, s.completed_at, c.name as court_name, nullif(c.email, '') as court_email
      from ${students} s join ${courts} c on c.id = s.court_id
      where s.id = ${input.studentId}::int
    ), advanced as (
      insert into ${certificateCounters} (year, last_value) select ${year}::int, 1 from (${gate}) as gate, subject
      where ${input.source}::text <> 'completion' or not exists (
        select 1 from ${certificates} where student_id = ${input.studentId}::int and source = 'completion')
      on conflict (year) do update set last_value = ${certificateCounters}.last_value + 1
      returning last_value
    ), numbered as (
      -- The number's one format: TS-<year>-<the counter, padded to at least six digits>.
      select 'TS-' || ${String(year)}::text || '-' || repeat('0', greatest(0, 6 - length(last_value::text))) || last_value::text as number,
        ${completionDate} as completion_date
      from advanced, subject
    ), inserted as (
      insert into ${certificates} (number, student_id, source, issued_by_staff_id, completion_date, snapshot,
        rules_profile_id, rules_profile_version, routing, retain_until, ${sql.identifier(certificates.issuedAt.name)}, replaces_id)
      select numbered.number, ${input.studentId}::int, ${input.source}::text, ${input.staffId ?? null}::int,
        numbered.completion_date,
        jsonb_build_object('number', numbered.number, 'studentName', subject.student_name, 'dlNumber', subject.dl_number,
          'dateOfBirth', subject.date_of_birth, 'courtName', subject.court_name, 'courseName', ${courseNameFor(pinned)}::text,
          'completionDate', to_char(numbered.completion_date, 'YYYY-MM-DD'),
          'rulesProfile', ${describeRulesProfile(pinned)}::text, 'issuedAt', ${now.toISOString()}::text)
          || case when subject.case_number is null then '{}'::jsonb else jsonb_build_object('caseNumber', subject.case_number) end
          || ${JSON.stringify(replaces)}::jsonb,
        ${pinned.id}::text, ${pinned.version}::int, ${routing}::text, ${addYears(issuedOn, retentionYears)}::date,
        ${now.toISOString()}::timestamptz, ${input.replaces?.id ?? null}::int
      from numbered, subject
      returning id, number
    ), delivered as (
      -- The student, and the court's clerk when the profile routes it there (only student_and_court
      -- emails the court; held_for_state_report waits for the state's report).
      insert into ${certificateDeliveries} (certificate_id, recipient, email, status, next_attempt_at, queued_at)
      select inserted.id, r.recipient, r.email, 'queued', ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from inserted, subject, lateral (values ('student', subject.email), ('court', subject.court_email)) as r(recipient, email)
      where ${input.email}::boolean and r.email is not null
        and (r.recipient = 'student' or ${routing}::text = 'student_and_court')
      returning id
    )`;
}

/**
 * Issues a certificate: a number, an immutable snapshot of what it certifies, and (unless told
 * not to) one delivery per recipient, the student and the court clerk. The PDF is rendered from
 * the snapshot later (ensureCertificatePdf), outside the caller's transaction: a final pass
 * grades in milliseconds and the delivery worker or the first download renders it.
 * For a completion it is idempotent: the enrolment's completion certificate is issued once,
 * whatever the number of calls. Runs inside the caller's transaction, as its last statement
 * (but for a staff-issued certificate's audit row).
 */
export async function issueCertificate(
  tx: Db,
  context: IssueContext,
  input: CertificateToIssue,
): Promise<{ id: number; created: boolean; number: string }> {
  const holder = await readCertificateHolder(tx, input.studentId);
  if (!holder) throw notFound('No such student.');
  const existing = input.source === 'completion' ? holder.completionCertificate : null;
  if (existing) return { id: existing.id, created: false, number: existing.number };
  const steps = await certificateIssueSteps(tx, context, holder.profile, input, sql`select 1`);
  const [row] = await selectRawRows<{ id: number; number: string }>(
    tx,
    sql`with ${steps} select id, number from inserted`,
  );
  if (!row) throw new Error('certificate was not saved');
  return { id: row.id, created: true, number: row.number };
}

export const courseNotComplete = () =>
  new AppError('COURSE_NOT_COMPLETE', 'A certificate is issued once the final exam is passed.');
