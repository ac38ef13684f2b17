import { and, asc, count, desc, eq, ilike, isNull, like, or, sql, type SQL } from 'drizzle-orm';
import {
  ADMIN_STUDENT_DEFAULT_ORDER,
  ADMIN_STUDENTS_PAGE_SIZE,
  type AdminStudent,
  type AdminStudentRow,
  type AdminStudentSort,
} from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { foldedNameContains } from '../../db/last-names.ts';
import type { Language } from '../../plugins/language.ts';
import { courts, staff, students } from '../../db/schema.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { readdressStudentDeliveries } from '../certificates/deliveries.service.ts';
import { assertMaySeeStudent } from '../../plugins/policies.ts';
import type { Auth } from '../../plugins/session.ts';
import { listCertificatesWithDeliveries } from '../certificates/certificate-lists.service.ts';
import { listPaymentsOf, listRefundsOf } from '../payments/payments.queries.ts';
import { listSubmittedAttemptsOf } from '../quiz/quiz.queries.ts';
import { getRulesProfile } from '../rules/rules.service.ts';
import { listRulesExceptions } from '../rules/exceptions.service.ts';
import { getStudentIdentity } from '../identity-checks/identity-checks.service.ts';
import { getAdminSeatTime } from '../seat-time/seat-time.service.ts';
import { type Clock, isoToUs, localDate, longUsDate, systemClock } from '../../platform/clock.ts';

type StaffAuth = Extract<Auth, { kind: 'staff' }>;

/** A search term taken literally by LIKE: its own %, _ and \ are escaped (backslash is the default escape). */
const escapeLike = (term: string) => term.replace(/[\\%_]/g, (character) => `\\${character}`);

/** Licence numbers are stored upper-cased without spaces or dashes (RegistrationSchema.dl_number), so searched so too. */
const normaliseLicenceNumber = (term: string) => term.toUpperCase().replace(/[\s-]/g, '');

/** What a search term matches: part of "first last" (so of either name), the email or the licence number. */
function matchesSearchTerm(searchTerm: string): SQL | undefined {
  const term = searchTerm.trim().replace(/\s+/g, ' ');
  if (term === '') return undefined;
  const pattern = `%${escapeLike(term)}%`;
  const licence = normaliseLicenceNumber(term);
  return or(
    // Names are compared folded (decision 064): "hernandez" finds "Hernández", "garcia lopez" "García-López".
    foldedNameContains(sql`${students.firstName} || ' ' || ${students.lastName}`, term),
    ilike(students.email, pattern),
    // A term of only spaces and dashes would match every licence number.
    licence === '' ? undefined : like(students.dlNumber, `%${escapeLike(licence)}%`),
  );
}

/**
 * The order of the list: by the chosen column, then newest first and by id, so a page boundary
 * never shows a student twice or skips one. Students not yet finished sort after the finished
 * ones whichever way the completion column is sorted.
 */
function orderOf(sort: AdminStudentSort, order: 'asc' | 'desc'): SQL[] {
  const direction = order === 'asc' ? asc : desc;
  const tieBreak = [desc(students.createdAt), desc(students.id)];
  switch (sort) {
    case 'name':
      return [direction(sql`lower(${students.lastName})`), direction(sql`lower(${students.firstName})`), ...tieBreak];
    case 'court':
      return [direction(courts.name), ...tieBreak];
    case 'completed':
      return [sql`${students.completedAt} is null`, direction(students.completedAt), ...tieBreak];
    case 'registered':
      return [direction(students.createdAt), direction(students.id)];
  }
}

/**
 * Spec 2 /admin/students: active enrolments, newest first (or by the column asked), a page at a time (pages start at 1),
 * with the number of all matches. An admin limited to one court sees only that court's students,
 * whatever court the query names (another court's filter simply finds nothing).
 */
export async function listAdminStudents(
  db: Db,
  auth: StaffAuth,
  query: {
    searchTerm?: string | undefined;
    page: number;
    courtId?: number | undefined;
    sort?: AdminStudentSort | undefined;
    order?: 'asc' | 'desc' | undefined;
  },
  /** SCHOOL_TIME_ZONE: the day a registration is shown as. */
  schoolTimeZone: string,
): Promise<{ rows: AdminStudentRow[]; total: number; page: number; pageSize: number }> {
  const where = and(
    isNull(students.archivedAt),
    auth.courtId === null ? undefined : eq(students.courtId, auth.courtId),
    query.courtId === undefined ? undefined : eq(students.courtId, query.courtId),
    query.searchTerm === undefined ? undefined : matchesSearchTerm(query.searchTerm),
  );
  const rows = await db
    .select({
      id: students.id,
      firstName: students.firstName,
      lastName: students.lastName,
      email: students.email,
      dlNumber: students.dlNumber,
      courtId: students.courtId,
      courtName: courts.name,
      createdAt: students.createdAt,
      paymentAt: students.paymentAt,
      completedAt: students.completedAt,
    })
    .from(students)
    .innerJoin(courts, eq(courts.id, students.courtId))
    .where(where)
    .orderBy(
      ...orderOf(query.sort ?? ADMIN_STUDENT_DEFAULT_ORDER.sort, query.order ?? ADMIN_STUDENT_DEFAULT_ORDER.order),
    )
    .limit(ADMIN_STUDENTS_PAGE_SIZE)
    .offset((query.page - 1) * ADMIN_STUDENTS_PAGE_SIZE);
  const [totals] = await db.select({ n: count() }).from(students).where(where);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      first_name: row.firstName,
      last_name: row.lastName,
      email: row.email,
      dl_number: row.dlNumber,
      court: row.courtId,
      court_name: row.courtName,
      payment_at: row.paymentAt?.toISOString() ?? null,
      completed_at: row.completedAt?.toISOString() ?? null,
      created_at_formatted: longUsDate(localDate(row.createdAt, schoolTimeZone)),
      created_at: row.createdAt.toISOString(),
    })),
    total: totals?.n ?? 0,
    page: query.page,
    pageSize: ADMIN_STUDENTS_PAGE_SIZE,
  };
}

/**
 * Spec 2 /admin/students/{id}: everything the detail shows, for staff whose scope covers the
 * student's court (anyone else is told there is no such student).
 */
export async function getStudentDetail(
  db: Db,
  {
    auth,
    clock = systemClock,
    schoolTimeZone,
    language = 'en',
  }: {
    auth: Auth;
    clock?: Clock;
    /** SCHOOL_TIME_ZONE: the day a moment is shown as. */
    schoolTimeZone: string;
    /** The reader's: the rules profile's name in it. */
    language?: Language;
  },
  studentId: number,
): Promise<AdminStudent> {
  // The admin page's own wording for a student it cannot show (missing or outside the scope).
  const notFoundMessage = 'Error getting student details';
  await assertMaySeeStudent(db, auth, studentId, notFoundMessage);
  const [row] = await db
    .select({ student: students, courtName: courts.name, enrolledBy: staff.name })
    .from(students)
    .innerJoin(courts, eq(courts.id, students.courtId))
    .leftJoin(staff, eq(staff.id, students.enrolledByStaffId))
    .where(eq(students.id, studentId));
  if (!row) throw notFound(notFoundMessage);
  const { student } = row;
  const paymentRows = await listPaymentsOf(db, studentId);
  const refundRows = await listRefundsOf(db, studentId);
  const attemptRows = await listSubmittedAttemptsOf(db, studentId);
  return {
    id: student.id,
    first_name: student.firstName,
    last_name: student.lastName,
    email: student.email,
    dl_number: student.dlNumber,
    dob: isoToUs(student.dob),
    dob_formatted: longUsDate(student.dob),
    address: student.address,
    city: student.city,
    state: student.state,
    zip: student.zip,
    court: student.courtId,
    court_name: row.courtName,
    created_at_formatted: longUsDate(localDate(student.createdAt, schoolTimeZone)),
    created_at: student.createdAt.toISOString(),
    payment_at: student.paymentAt?.toISOString() ?? null,
    payment_at_formatted: student.paymentAt ? longUsDate(localDate(student.paymentAt, schoolTimeZone)) : null,
    completed_at: student.completedAt?.toISOString() ?? null,
    archived_at: student.archivedAt?.toISOString() ?? null,
    enrolled_by: row.enrolledBy,
    language: student.language,
    rules_profile: {
      id: student.rulesProfileId,
      version: student.rulesProfileVersion,
      name: (await getRulesProfile(db, student.rulesProfileId, student.rulesProfileVersion)).name[language],
    },
    court_due_date: student.courtDueDate,
    case_number: student.caseNumber,
    exceptions: await listRulesExceptions(db, studentId),
    payments: paymentRows.map(({ payment, recordedBy }) => ({
      method: payment.method,
      manual_method: payment.manualMethod,
      amount_cents: payment.amountCents,
      recorded_by: recordedBy,
      created_at: payment.createdAt.toISOString(),
    })),
    refunds: refundRows.map(({ refund, refundedBy }) => ({
      id: refund.id,
      amount_cents: refund.amountCents,
      currency: refund.currency,
      status: refund.status,
      reason: refund.reason,
      refunded_by: refundedBy,
      created_at: refund.createdAt.toISOString(),
    })),
    certificates: await listCertificatesWithDeliveries(db, studentId),
    attempts: attemptRows.map((attempt) => ({
      chapter_id: attempt.chapterId,
      submitted_at: attempt.submittedAt?.toISOString() ?? null,
      score: attempt.score,
      passed: attempt.passed,
      total: attempt.total,
    })),
    identity: await getStudentIdentity(db, clock, studentId),
    seat_time: await getAdminSeatTime(db, studentId),
  };
}

/**
 * Staff correct a student's email and mailing address, audited before and after, and
 * the student's certificate emails follow the new address (resent at once when asked), in one
 * transaction. An email another active enrolment uses is refused, and nothing changes. The
 * language the student's emails are written in is changed here too, when given (decision 056).
 */
export async function updateStudentContact(
  db: Db,
  clock: Clock,
  input: {
    auth: Auth;
    staffId: number;
    studentId: number;
    contact: {
      email: string;
      address: string;
      city: string;
      state: string;
      zip: string;
      resend: boolean;
      language?: Language | undefined;
    };
  },
): Promise<void> {
  await assertMaySeeStudent(db, input.auth, input.studentId);
  const { resend, ...fields } = input.contact;
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .select({
          email: students.email,
          address: students.address,
          city: students.city,
          state: students.state,
          zip: students.zip,
          language: students.language,
          archivedAt: students.archivedAt,
        })
        .from(students)
        .where(eq(students.id, input.studentId))
        .for('update');
      if (!row) throw notFound('No such student.');
      const { archivedAt, language: languageBefore, ...contactBefore } = row;
      // The language is audited only when it is given, so an older form's save reads as before.
      const before = fields.language === undefined ? contactBefore : { ...contactBefore, language: languageBefore };
      // An archived enrolment is history: its address is what it was, and its certificates are not
      // sent again to a new one (the student's current enrolment has its own contact details).
      if (archivedAt) {
        throw new AppError('ENROLMENT_ARCHIVED', 'This enrolment is archived and kept as it was.');
      }
      await tx.update(students).set(fields).where(eq(students.id, input.studentId));
      await readdressStudentDeliveries(tx, clock, { studentId: input.studentId, email: fields.email, resend });
      await recordAudit(tx, clock, {
        staffId: input.staffId,
        action: 'update_contact',
        entityType: 'student',
        entityId: input.studentId,
        before,
        after: { ...fields, resend },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError('DUPLICATE_ACCOUNT', 'Another active enrolment uses this email address.', {
        studentId: input.studentId,
        in_use: 'email',
      });
    }
    throw error;
  }
}
