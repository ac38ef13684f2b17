import { recordAudit } from '../audit/audit.service.ts';
import { and, asc, desc, eq, gte, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Certificate } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { selectRawRows } from '../../db/raw-rows.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { parseJsonColumn } from '../../db/subquery-columns.ts';
import { certificateCounters, certificateDeliveries, certificates, courts, students } from '../../db/schema.ts';
import { type Clock, localDate, US_DATE_FORMAT } from '../../platform/clock.ts';
import { type CertificateSnapshot, renderCertificatePdf, sha256Hex } from '../../platform/pdf/certificate-pdf.ts';
import { AppError, forbidden, notFound } from '../../plugins/errors.ts';
import { canSeeStudent, getVisibleStudent } from '../../plugins/policies.ts';
import { repeatWindowStart } from '../../plugins/repeats.ts';
import type { Auth, ProfileRef } from '../../plugins/session.ts';
import { maskName, parseCompletionDate } from './certificate-dates.ts';
import { getLinkKey, isValidDownloadSignature } from './download-links.ts';
import { getPinnedProfile, type StudentProfile } from '../rules/rules.service.ts';
import { findStateFilingDates } from './state-filings.service.ts';
import { describeTimeline } from './certificate-timeline.ts';
import { lockStudentRow } from '../../db/student-lock.ts';
import { readEditions } from '../../db/content-files.ts';

export const COURSE_NAME = 'Court-Assigned Defensive Driving Course (four chapters and a final exam)';
/** How a certificate under the default profile (version 1, the spec's course) names its rules. */
export const DEFAULT_RULES_PROFILE = 'Standard course (version 1)';

/**
 * The course rules line of the snapshot, as a court reads it (issue 17): the profile's public
 * name and version, never an internal id. A certificate already issued keeps the words it has.
 */
export function describeRulesProfile(profile: StudentProfile): string {
  return `${profile.rules.name.en} (version ${String(profile.version)})`;
}

let editionNames: ReadonlyMap<string, string> | undefined;

/**
 * The course's name on a certificate: a state edition's public name for its students (decision
 * 051, "Texas Driving Safety Course"), the shared course's otherwise. Read once from content/.
 */
export function courseNameFor(profile: StudentProfile): string {
  editionNames ??= new Map(readEditions().map((edition) => [edition.id, edition.name.en]));
  const { edition } = profile.rules;
  return (edition === null ? undefined : editionNames.get(edition)) ?? COURSE_NAME;
}

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
 * statement for it (issue 15).
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
  /** A correction's reissue (issue 18): the certificate it replaces, printed as such. */
  replaces?: { id: number; number: string };
}

/**
 * The statements that issue a certificate, as common table expressions to run inside one
 * statement (issue 15: each statement is a round trip): the student and court it certifies, read
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
 * (but for an admin's audit row).
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
  const { number } = row;
  if (input.source === 'admin' && input.staffId !== undefined) {
    await recordAudit(tx, context.clock, {
      staffId: input.staffId,
      action: 'issue_certificate',
      entityType: 'certificate',
      entityId: row.id,
      before: null,
      after: { number, student_id: input.studentId, completion_date: input.completionDate },
    });
  }
  return { id: row.id, created: true, number };
}

export const fileUrl = (number: string) => `/api/certificates/${encodeURIComponent(number)}/pdf`;

/** A student's certificates, newest first, each with its delivery rows (two queries in all). */
async function loadCertificatesWithDeliveries(db: Db, studentId: number) {
  const rows = await db
    .select({
      id: certificates.id,
      number: certificates.number,
      issuedAt: certificates.issuedAt,
      completionDate: certificates.completionDate,
      routing: certificates.routing,
      acknowledgedAt: certificates.acknowledgedAt,
      supersededAt: certificates.supersededAt,
      replaces: sql<string | null>`(select r.number from ${certificates} r where r.id = ${certificates.replacesId})`,
      passedAt: students.completedAt,
    })
    .from(certificates)
    .innerJoin(students, eq(students.id, certificates.studentId))
    .where(eq(certificates.studentId, studentId))
    .orderBy(desc(certificates.issuedAt), desc(certificates.id));
  if (rows.length === 0) return [];
  const deliveries = await db
    .select()
    .from(certificateDeliveries)
    .where(
      inArray(
        certificateDeliveries.certificateId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(certificateDeliveries.id));
  const filedWithState = await findStateFilingDates(
    db,
    rows.filter((row) => row.routing === 'held_for_state_report').map((row) => row.id),
  );
  return rows.map((row) => {
    const own = deliveries.filter((delivery) => delivery.certificateId === row.id);
    const stateFiledAt = filedWithState.get(row.id) ?? null;
    return {
      certificate: {
        id: row.id,
        number: row.number,
        generated_at: row.issuedAt.toISOString(),
        completion_date: row.completionDate,
        file_url: fileUrl(row.number),
        url: fileUrl(row.number),
        routing: row.routing,
        state_filed_at: stateFiledAt?.toISOString() ?? null,
        timeline: describeTimeline({
          passedAt: row.passedAt,
          issuedAt: row.issuedAt,
          routing: row.routing,
          deliveries: own,
          stateFiledAt,
          acknowledgedAt: row.acknowledgedAt,
        }),
        replaces: row.replaces,
        superseded_at: row.supersededAt?.toISOString() ?? null,
      },
      deliveries: own,
    };
  });
}

/** Spec 3 Certificate rows of one enrolment, newest first, with each recipient's delivery state. */
export async function listCertificatesOf(db: Db, studentId: number): Promise<Certificate[]> {
  return (await loadCertificatesWithDeliveries(db, studentId)).map(({ certificate, deliveries }) => ({
    ...certificate,
    deliveries: deliveries.map((delivery) => ({
      recipient: delivery.recipient,
      status: delivery.status,
      sent_at: delivery.sentAt?.toISOString() ?? null,
    })),
  }));
}

/**
 * The student's newest certificate, its number and file (the spec's call after a final pass); 404
 * before the first. One prepared statement (issue 15): every student asks it once they pass.
 */
export async function getLatestCertificateOf(db: Db, studentId: number): Promise<{ number: string; url: string }> {
  const [latest] = await prepareOnce(db, 'find_latest_certificate', (database) =>
    database
      .select({ number: certificates.number })
      .from(certificates)
      .where(eq(certificates.studentId, sql.placeholder('studentId')))
      .orderBy(desc(certificates.issuedAt), desc(certificates.id))
      .limit(1)
      .prepare('find_latest_certificate'),
  ).execute({ studentId });
  if (!latest) throw notFound('No certificate yet.');
  return { number: latest.number, url: fileUrl(latest.number) };
}

/**
 * The certificate this super_admin issued this student with this completion date moments ago
 * (decision 040): a second click, or the same request sent again, is answered with it, since each
 * number issued is kept for good. Locks the student's row first, so that of two sent at once the
 * second waits and finds the first's.
 */
async function findRepeatedAdminCertificate(
  tx: Db,
  clock: Clock,
  input: { studentId: number; staffId: number; completionDate: string },
): Promise<{ id: number } | undefined> {
  await lockStudentRow(tx, input.studentId);
  const [repeated] = await tx
    .select({ id: certificates.id })
    .from(certificates)
    .where(
      and(
        eq(certificates.studentId, input.studentId),
        eq(certificates.source, 'admin'),
        eq(certificates.issuedByStaffId, input.staffId),
        eq(certificates.completionDate, input.completionDate),
        isNull(certificates.supersededAt),
        gte(certificates.issuedAt, repeatWindowStart(clock.now())),
      ),
    )
    .orderBy(desc(certificates.id))
    .limit(1);
  return repeated;
}

/**
 * Spec 7: the student's call after a final pass, or (noEmail) a super_admin's new certificate with
 * a completion date they type. Either way only for a student the caller may see (404 otherwise)
 * whose course is complete.
 */
export async function issueCertificateFor(
  db: Db,
  { auth, ...context }: IssueContext & { auth: Auth },
  input: { studentId: number; noEmail: boolean; completionDate?: string | undefined },
): Promise<Certificate> {
  const student = await getVisibleStudent(db, auth, input.studentId);
  // noEmail=1 is a super_admin's new certificate with a typed date; otherwise the student's own.
  const byStaff = input.noEmail;
  if (byStaff && (auth.kind !== 'staff' || auth.role !== 'super_admin')) {
    throw forbidden('Only a super admin issues a new certificate.');
  }
  if (!byStaff && auth.kind !== 'student') {
    throw forbidden('Staff issue certificates with a completion date (noEmail=1).');
  }
  // Either way, only for a finished course (issue 13: never one for a student who did not finish).
  if (!student.completedAt) throw courseNotComplete();
  const completionDate = byStaff
    ? parseCompletionDate(input.completionDate ?? '', context.clock.now())
    : localDate(student.completedAt, context.config.schoolTimeZone);
  if (!completionDate)
    throw new AppError('COMPLETION_DATE_INVALID', 'Please enter a past completion date written like January 1, 2023.');
  const issued = await db.transaction(async (tx) => {
    if (auth.kind === 'student') {
      return issueCertificate(tx, context, {
        studentId: student.id,
        completionDate,
        source: 'completion',
        email: true,
      });
    }
    const repeated = await findRepeatedAdminCertificate(tx, context.clock, {
      studentId: student.id,
      staffId: auth.staffId,
      completionDate,
    });
    return (
      repeated ??
      issueCertificate(tx, context, {
        studentId: student.id,
        completionDate,
        source: 'admin',
        staffId: auth.staffId,
        email: false,
      })
    );
  });
  const all = await listCertificatesOf(db, student.id);
  const certificate = all.find((candidate) => candidate.id === issued.id);
  if (!certificate) throw notFound('No such certificate.');
  // A correction replaced the completion certificate (issue 18): the student's certificate is now
  // the newest one not superseded, the reissue.
  if (byStaff || certificate.superseded_at === null) return certificate;
  return all.find((candidate) => candidate.superseded_at === null) ?? certificate;
}

/**
 * The PDF: for a signed link from an email, its owner, or staff whose scope covers the student.
 * Anyone else gets 404 for every number, real or not: numbers are sequential, so a different
 * answer for a real one would be an oracle (issue 13). The caller is resolved only when the link
 * is not signed.
 */
export async function getCertificatePdfFor(
  db: Db,
  { clock, config }: IssueContext,
  resolveAuth: () => Promise<Auth | null>,
  input: { number: string; link: { expires?: number | undefined; signature?: string | undefined } | null },
): Promise<Buffer> {
  const noSuchCertificate = () => notFound('No such certificate.');
  const signed =
    input.link !== null &&
    isValidDownloadSignature(await getLinkKey(db), input.number, input.link.expires, input.link.signature, clock.now());
  const auth = signed ? null : await resolveAuth();
  if (!signed && !auth) throw noSuchCertificate();
  const file = await findCertificateFile(db, input.number);
  if (!file) throw noSuchCertificate();
  if (!signed && !(auth && canSeeStudent(auth, { id: file.studentId, courtId: file.courtId }))) {
    throw noSuchCertificate();
  }
  return ensureCertificatePdf(db, config, file);
}

/**
 * A certificate's PDF, rendered from its snapshot and stored the first time it is asked for (the
 * delivery worker or a download, on any instance). Rendering is deterministic (the document is
 * dated by the snapshot's issue moment), and only the first store is kept: whoever renders
 * second returns the stored bytes, so the file and its SHA-256 never change once stored.
 */
export async function ensureCertificatePdf(
  db: Db,
  config: Config,
  certificate: { id: number; number: string; snapshot: unknown; pdf: Buffer | null },
): Promise<Buffer> {
  if (certificate.pdf) return certificate.pdf;
  const rendered = Buffer.from(
    await renderCertificatePdf(certificate.snapshot as CertificateSnapshot, {
      schoolName: config.schoolName,
      verifyUrl: `${config.publicUrl}/verify/${certificate.number}`,
      timeZone: config.schoolTimeZone,
    }),
  );
  const [stored] = await db
    .update(certificates)
    .set({ pdf: rendered, pdfSha256: sha256Hex(rendered) })
    .where(and(eq(certificates.id, certificate.id), isNull(certificates.pdf)))
    .returning({ id: certificates.id });
  if (stored) return rendered;
  const [first] = await db
    .select({ pdf: certificates.pdf })
    .from(certificates)
    .where(eq(certificates.id, certificate.id));
  return first?.pdf ?? rendered;
}

/** The PDF of a certificate with what decides who may download it. */
async function findCertificateFile(db: Db, number: string) {
  const [row] = await db
    .select({
      id: certificates.id,
      pdf: certificates.pdf,
      snapshot: certificates.snapshot,
      studentId: certificates.studentId,
      courtId: students.courtId,
      number: certificates.number,
    })
    .from(certificates)
    .innerJoin(students, eq(students.id, certificates.studentId))
    .where(eq(certificates.number, number));
  return row ?? null;
}

/** Public verification: genuine or not, the completion date, the court and a masked name; nothing else. */
export async function verifyCertificateNumber(db: Db, number: string) {
  const [row] = await db
    .select({
      number: certificates.number,
      completionDate: certificates.completionDate,
      courtName: courts.name,
      firstName: students.firstName,
      lastName: students.lastName,
      supersededAt: certificates.supersededAt,
      // Issue 18: the correction's reissue that replaced it, if one did.
      supersededBy: sql<
        string | null
      >`(select r.number from ${certificates} r where r.id = ${certificates.supersededById})`,
    })
    .from(certificates)
    .innerJoin(students, eq(students.id, certificates.studentId))
    .innerJoin(courts, eq(courts.id, students.courtId))
    .where(eq(certificates.number, number.toUpperCase()));
  if (!row) {
    return {
      valid: false,
      number,
      completion_date: null,
      court_name: null,
      student_name: null,
      superseded_by: null,
      superseded_at: null,
    };
  }
  return {
    valid: row.supersededAt === null,
    number: row.number,
    completion_date: row.completionDate,
    court_name: row.courtName,
    student_name: maskName(row.firstName, row.lastName),
    superseded_by: row.supersededAt ? row.supersededBy : null,
    superseded_at: row.supersededAt?.toISOString() ?? null,
  };
}

/**
 * Spec 2 /admin/archive: certificates of every enrolment (archived ones too) with this licence
 * number or email. An admin limited to one court sees only that court's.
 */
export async function searchArchive(db: Db, query: string, courtId: number | null) {
  const dlNumber = query.toUpperCase().replace(/[\s-]/g, '');
  const email = query.trim().toLowerCase();
  const rows = await db
    .select({
      id: certificates.id,
      number: certificates.number,
      issuedAt: certificates.issuedAt,
      dlNumber: students.dlNumber,
      email: students.email,
    })
    .from(certificates)
    .innerJoin(students, eq(students.id, certificates.studentId))
    .where(
      and(
        or(eq(students.dlNumber, dlNumber), eq(students.email, email)),
        courtId === null ? undefined : eq(students.courtId, courtId),
      ),
    )
    .orderBy(desc(certificates.issuedAt));
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    generated_at: row.issuedAt.toISOString(),
    dl_number: row.dlNumber,
    email: row.email,
    file_url: fileUrl(row.number),
  }));
}

export const courseNotComplete = () =>
  new AppError('COURSE_NOT_COMPLETE', 'A certificate is issued once the final exam is passed.');

/** For admins: the certificates with every delivery's address, attempts and last error. */
export async function listCertificatesWithDeliveries(db: Db, studentId: number) {
  return (await loadCertificatesWithDeliveries(db, studentId)).map(({ certificate, deliveries }) => ({
    ...certificate,
    deliveries: deliveries.map((delivery) => ({
      id: delivery.id,
      recipient: delivery.recipient,
      email: delivery.email,
      status: delivery.status,
      attempts: delivery.attempts,
      last_error: delivery.lastError,
      sent_at: delivery.sentAt?.toISOString() ?? null,
    })),
  }));
}

/** The student a delivery belongs to, for the scope check before an admin resends it. */
export async function findDeliveryOwner(db: Db, deliveryId: number) {
  const [row] = await db
    .select({ id: students.id, courtId: students.courtId })
    .from(certificateDeliveries)
    .innerJoin(certificates, eq(certificates.id, certificateDeliveries.certificateId))
    .innerJoin(students, eq(students.id, certificates.studentId))
    .where(eq(certificateDeliveries.id, deliveryId));
  return row ?? null;
}
