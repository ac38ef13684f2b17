import { recordAudit } from '../audit/audit.service.ts';
import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Certificate } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { selectRawRows } from '../../db/raw-rows.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { parseJsonColumn } from '../../db/subquery-columns.ts';
import { certificateCounters, certificateDeliveries, certificates, courts, students } from '../../db/schema.ts';
import { type Clock, isoToUs, localDate } from '../../platform/clock.ts';
import { type CertificateSnapshot, renderCertificatePdf, sha256Hex } from '../../platform/pdf/certificate-pdf.ts';
import { AppError, forbidden, notFound } from '../../plugins/errors.ts';
import { canSeeStudent, getVisibleStudent } from '../../plugins/policies.ts';
import type { Auth } from '../../plugins/session.ts';
import { maskName, parseCompletionDate } from './certificate-dates.ts';
import { getLinkKey, isValidDownloadSignature } from './download-links.ts';
import { getPinnedProfile, type StudentProfile } from '../rules/rules.service.ts';
import { findStateFilingDates } from './state-filings.service.ts';
import { describeTimeline } from './certificate-timeline.ts';

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

/** The student's columns a certificate reads (only these: a final pass reads them, issue 15). */
const subjectColumns = {
  id: students.id,
  firstName: students.firstName,
  lastName: students.lastName,
  email: students.email,
  dlNumber: students.dlNumber,
  dob: students.dob,
  caseNumber: students.caseNumber,
  completedAt: students.completedAt,
  rulesProfileId: students.rulesProfileId,
  rulesProfileVersion: students.rulesProfileVersion,
};

/** What a certificate certifies, read in one query: the student, their court, and the enrolment's completion certificate if it exists. */
export interface CertificateSubject {
  student: Pick<typeof students.$inferSelect, keyof typeof subjectColumns>;
  courtName: string;
  courtEmail: string | null;
  completionCertificate: { id: number; number: string } | null;
}

export async function readCertificateSubject(db: Db, studentId: number): Promise<CertificateSubject | undefined> {
  // Prepared once: a final pass reads it (issue 15).
  const [subject] = await prepareOnce(db, 'read_certificate_subject', (database) =>
    database
      .select({
        student: subjectColumns,
        courtName: courts.name,
        courtEmail: courts.email,
        completionCertificate: sql<{
          id: number;
          number: string;
        } | null>`(select json_build_object('id', c.id, 'number', c.number)
        from ${certificates} c where c.student_id = ${students.id} and c.source = 'completion')`.mapWith(
          (value: unknown) => parseJsonColumn(value) as { id: number; number: string } | null,
        ),
      })
      .from(students)
      .innerJoin(courts, eq(courts.id, students.courtId))
      .where(eq(students.id, sql.placeholder('studentId')))
      .prepare('read_certificate_subject'),
  ).execute({ studentId });
  return subject;
}

export interface CertificateToIssue {
  studentId: number;
  source: 'completion' | 'admin' | 'correction';
  completionDate: string;
  staffId?: number;
  email: boolean;
  /** A correction's reissue (issue 18): the certificate it replaces, printed as such. */
  replaces?: { id: number; number: string };
}

/**
 * The statements that issue a certificate, as common table expressions to run inside one
 * statement (issue 15: each statement is a round trip): the year's gap-free number (decision
 * 010), the certificate with it and its immutable snapshot, and one delivery per recipient (the
 * student and, when the profile routes it there, the court). They run only for the rows of
 * `gate` (a query: one row to issue, none not to), so the counter never advances without a
 * certificate; a completion's only when the enrolment has none yet. `inserted` answers the new
 * certificate's id and number. The counter row every
 * issue of the year waits on is held until the statement's transaction commits: whoever runs
 * these makes them the transaction's last statement.
 */
export async function certificateIssueSteps(
  db: Db,
  context: IssueContext,
  subject: CertificateSubject,
  input: CertificateToIssue,
  gate: SQL,
): Promise<SQL> {
  const { student } = subject;
  const now = context.clock.now();
  const issuedOn = localDate(now, context.config.schoolTimeZone);
  // Decision 012: the enrolment's profile decides who receives it and how long it is kept.
  const profile = await getPinnedProfile(db, { id: student.rulesProfileId, version: student.rulesProfileVersion });
  const { routing, retentionYears } = profile.rules.certificate;
  const year = Number(issuedOn.slice(0, 4));
  const snapshot: CertificateSnapshot = {
    // Written by the statement that takes the number (below).
    number: '',
    studentName: `${student.firstName} ${student.lastName}`,
    dlNumber: student.dlNumber,
    dateOfBirth: isoToUs(student.dob),
    courtName: subject.courtName,
    courseName: COURSE_NAME,
    completionDate: input.completionDate,
    rulesProfile: describeRulesProfile(profile),
    ...(student.caseNumber ? { caseNumber: student.caseNumber } : {}),
    ...(input.replaces ? { replaces: input.replaces.number } : {}),
    issuedAt: now.toISOString(),
  };
  const recipients = input.email
    ? [
        { recipient: 'student', email: student.email },
        // Only student_and_court emails the court; held_for_state_report waits for the state's report.
        ...(subject.courtEmail && routing === 'student_and_court'
          ? [{ recipient: 'court', email: subject.courtEmail }]
          : []),
      ]
    : [];
  return sql`advanced as (
      insert into ${certificateCounters} (year, last_value) select ${year}::int, 1 from (${gate}) as gate
      where ${input.source}::text <> 'completion' or not exists (
        select 1 from ${certificates} where student_id = ${input.studentId}::int and source = 'completion')
      on conflict (year) do update set last_value = ${certificateCounters}.last_value + 1
      returning last_value
    ), numbered as (
      -- The number's one format: TS-<year>-<the counter, padded to at least six digits>.
      select 'TS-' || ${String(year)}::text || '-' || repeat('0', greatest(0, 6 - length(last_value::text))) || last_value::text as number
      from advanced
    ), inserted as (
      insert into ${certificates} (number, student_id, source, issued_by_staff_id, completion_date, snapshot,
        rules_profile_id, rules_profile_version, routing, retain_until, ${sql.identifier(certificates.issuedAt.name)}, replaces_id)
      select numbered.number, ${input.studentId}::int, ${input.source}::text, ${input.staffId ?? null}::int,
        ${input.completionDate}::date, jsonb_set(${JSON.stringify(snapshot)}::jsonb, '{number}', to_jsonb(numbered.number)),
        ${profile.id}::text, ${profile.version}::int, ${routing}::text, ${addYears(issuedOn, retentionYears)}::date,
        ${now.toISOString()}::timestamptz, ${input.replaces?.id ?? null}::int
      from numbered
      returning id, number
    ), delivered as (
      insert into ${certificateDeliveries} (certificate_id, recipient, email, status, next_attempt_at, queued_at)
      select inserted.id, r.recipient, r.email, 'queued', ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from inserted, jsonb_to_recordset(${JSON.stringify(recipients)}::jsonb) as r(recipient text, email text)
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
  const subject = await readCertificateSubject(tx, input.studentId);
  if (!subject) throw notFound('No such student.');
  const existing = input.source === 'completion' ? subject.completionCertificate : null;
  if (existing) return { id: existing.id, created: false, number: existing.number };
  const steps = await certificateIssueSteps(tx, context, subject, input, sql`select 1`);
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
  const issued = await db.transaction((tx) =>
    issueCertificate(tx, context, {
      studentId: student.id,
      completionDate,
      ...(auth.kind === 'staff'
        ? { source: 'admin', staffId: auth.staffId, email: false }
        : { source: 'completion', email: true }),
    }),
  );
  return getCertificateOf(db, student.id, issued.id);
}

export async function getCertificateOf(db: Db, studentId: number, certificateId: number): Promise<Certificate> {
  const found = (await listCertificatesOf(db, studentId)).find((certificate) => certificate.id === certificateId);
  if (!found) throw notFound('No such certificate.');
  return found;
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
      // Issue 18: the correction that replaced it, if one did.
      supersededBy: sql<
        string | null
      >`(select r.number from ${certificates} r where r.replaces_id = ${certificates.id})`,
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
