import { courtProfileRefColumns, findCourtProfileRef } from '../rules/rules.service.ts';
import { and, eq, gt, isNotNull, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import { parseCourtDueDate, parseDateOfBirth, type RegistrationSchema } from '@ts/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { courts, resetTokens, students } from '../../db/schema.ts';
import { type Clock, localDate } from '../../platform/clock.ts';
import { schoolEvents } from '../../platform/metrics.ts';
import { createToken, hashToken } from '../../platform/tokens.ts';
import { newPaymentToken } from '../payments/payment-access.ts';
import { AppError, badRequest, forbidden } from '../../plugins/errors.ts';
import type { Language } from '../../plugins/language.ts';
import { underGuessLimits, withGuessThrottle } from '../auth/throttle.ts';
import { selectRawRows } from '../../db/raw-rows.ts';
import { policyRoleOf, type PolicyRole } from '../../plugins/endpoint.ts';
import { endStudentSessions, type Auth } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { PaymentContext } from '../payments/fulfil-payment.service.ts';
import { recordManualEnrolmentPayment } from '../payments/manual-payments.service.ts';
import { cancelOpenPaymentIntents } from '../payments/payment-intents.service.ts';

type Registration = z.output<typeof RegistrationSchema>;

export const RESET_TOKEN_MINUTES = 30;

const DUPLICATE_MESSAGE =
  "An account already exists with this email or driver's license. The new account replaces the old one and previous progress is not transferred.";

/** Decision 011: the policy roles that may enrol a student by hand (spec 7 `backdoor`). */
const MAY_ENROL_MANUALLY: readonly PolicyRole[] = ['super_admin', 'admin'];

/**
 * Who a `backdoor: true` registration is enrolled by (decision 011): a staff member allowed to
 * enrol, or nobody when there is no staff session (the registration is then an ordinary one). A
 * signed-in staff member whose role may not enrol (a clerk, a court-limited admin) is refused.
 */
export function findManualEnrolmentStaffId(auth: Auth | null): number | null {
  if (auth?.kind !== 'staff') return null;
  if (!MAY_ENROL_MANUALLY.includes(policyRoleOf(auth))) {
    throw forbidden('Only an admin can enrol a student by hand.');
  }
  return auth.staffId;
}

/**
 * Spec 4 and 5: registers a new enrolment. An active enrolment with the same email or licence
 * number is a 409 carrying its studentId, and a reset token only when this registration proves
 * that enrolment's sign-in identity (decision 004).
 *
 * With `enrolledByStaffId` (manual enrolment, decision 011) the student is enrolled paid: the
 * school took the money another way, so a `manual` payment recorded by that staff member, the
 * enrolment and its audit entry are written in one transaction. A duplicate then answers the
 * same 409 without a reset token: the enrolment form offers no "Continue and Register".
 */
export async function registerStudent(
  db: Db,
  context: RegistrationContext,
  input: Registration,
): Promise<{ studentId: number; paymentToken?: string }> {
  const registered = await writeRegistration(db, context, input);
  // Counted once its statement or transaction has committed (decision 060).
  schoolEvents.registrations.inc();
  return registered;
}

interface RegistrationContext {
  clock: Clock;
  /** The staff member enrolling the student by hand (spec 7), or null for the student's own. */
  enrolledByStaffId: number | null;
  schoolTimeZone: string;
  /** The caller's address, for the duplicate-probe throttle. */
  ip: string;
  /** The school's price, for a manual enrolment's payment when no amount is given (decision 026). */
  defaultPriceCents: number;
  /** The language the registration was made in: the student's emails are written in it (decision 056). */
  language: Language;
}

async function writeRegistration(
  db: Db,
  context: RegistrationContext,
  input: Registration,
): Promise<{ studentId: number; paymentToken?: string }> {
  const { clock, enrolledByStaffId, schoolTimeZone, ip } = context;
  const dob = parseDateOfBirth(input.dob, clock.now());
  if (!dob) throw badRequest('Date of birth is not a valid date.');
  let courtDueDate: string | null = null;
  if (input.court_due_date) {
    courtDueDate = parseCourtDueDate(input.court_due_date, localDate(clock.now(), schoolTimeZone));
    if (!courtDueDate) throw badRequest('The court due date is not a valid date.');
  }
  const probe = enrolledByStaffId === null ? { ip } : null;
  // Decision 048: the registering browser's key to the card form (a staff enrolment is paid already).
  const paymentToken = enrolledByStaffId === null ? newPaymentToken(clock) : undefined;
  const now = clock.now();
  const person = {
    firstName: input.first_name,
    lastName: input.last_name,
    email: input.email,
    dlNumber: input.dl_number,
    dob,
    address: input.address,
    city: input.city,
    state: input.state,
    zip: input.zip,
    courtId: input.court,
    courtDueDate,
    caseNumber: input.case_number ?? null,
    paymentTokenHash: paymentToken ? hashToken(paymentToken) : null,
    language: context.language,
    // Every column a registration writes, whichever path writes it: insertStudentIfClear names
    // them one by one, so a new one must be added there too (the compiler says so).
  } satisfies Record<Exclude<RegisteredColumn, 'createdAt' | ProfileColumn>, unknown>;
  try {
    // A student's own registration that nothing stands in the way of: one statement (decision 031).
    if (probe) {
      const [created] = await insertStudentIfClear(
        db,
        { ...person, createdAt: now },
        underGuessLimits(clock, probeOf(input, probe)),
      );
      if (created) return { studentId: created.id, paymentToken };
    }
    // The court's rules profile as it is today stays the enrolment's rules (decision 012).
    const profile = await findCourtProfileRef(db, input.court);
    if (!profile) throw new AppError('NO_SUCH_COURT', 'Please choose a court from the list.');
    const fields = { ...person, rulesProfileId: profile.id, rulesProfileVersion: profile.version };
    // Which refusal it is (or, after a race, that there is none after all).
    await assertNoActiveDuplicate(db, clock, input, dob, probe);
    if (enrolledByStaffId === null) {
      const [created] = await db
        .insert(students)
        .values({ ...fields, createdAt: now })
        .returning({ id: students.id });
      if (!created) throw new Error('insert returned no row');
      return { studentId: created.id, paymentToken };
    }
    return await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(students)
        .values({ ...fields, enrolledByStaffId, createdAt: now, paymentAt: now })
        .returning({ id: students.id });
      if (!created) throw new Error('insert returned no row');
      await recordManualEnrolmentPayment(tx, {
        studentId: created.id,
        staffId: enrolledByStaffId,
        at: now,
        payment: input.manual_payment ?? {},
        defaultPriceCents: context.defaultPriceCents,
      });
      await recordAudit(tx, clock, {
        staffId: enrolledByStaffId,
        action: 'enrol_student',
        entityType: 'student',
        entityId: created.id,
        before: null,
        after: {
          first_name: input.first_name,
          last_name: input.last_name,
          email: input.email,
          dl_number: input.dl_number,
          dob,
          address: input.address,
          city: input.city,
          state: input.state,
          zip: input.zip,
          court: input.court,
          payment_at: now.toISOString(),
          payment_method: 'manual',
        },
      });
      return { studentId: created.id };
    });
  } catch (error) {
    // Two registrations racing past the check: the unique index decides, with the same answer.
    if (isUniqueViolation(error)) await assertNoActiveDuplicate(db, clock, input, dob, probe);
    throw error;
  }
}

/** The columns a student's own registration writes, in insertStudentIfClear's order. */
const REGISTERED = [
  'firstName',
  'lastName',
  'email',
  'dlNumber',
  'dob',
  'address',
  'city',
  'state',
  'zip',
  'courtId',
  'paymentTokenHash',
  'rulesProfileId',
  'rulesProfileVersion',
  'courtDueDate',
  'caseNumber',
  'language',
  'createdAt',
] as const;
type RegisteredColumn = (typeof REGISTERED)[number];

/** The columns the court's row gives (decision 012: its rules profile as it is today). */
type ProfileColumn = 'rulesProfileId' | 'rulesProfileVersion';

/**
 * A student's own registration in one statement (decision 031: a thousand may register within a
 * minute, and the checks first were a transaction of five statements): inserted only while the
 * court exists (its rules profile as it is today is pinned, findCourtProfileRef's) and neither the
 * licence nor the address is over the duplicate probes' limits. An active enrolment holding the
 * email or the licence number is the students table's unique indexes' to find (decision 005), so
 * such a registration inserts nothing either. Without a row, registerStudent asks which refusal it
 * is, counting the probe (assertNoActiveDuplicate, the one duplicate check). A registration that
 * collides finds nothing out here, so none is counted here.
 */
async function insertStudentIfClear(
  db: Db,
  values: Record<Exclude<RegisteredColumn, ProfileColumn>, unknown>,
  /** underGuessLimits of the probe this registration would be. */
  underLimits: SQL,
): Promise<{ id: number }[]> {
  const fromCourt = courtProfileRefColumns();
  const valueOf = (key: RegisteredColumn) => {
    if (key === 'rulesProfileId' || key === 'rulesProfileVersion') return fromCourt[key];
    const value = values[key];
    return sql`${value instanceof Date ? value.toISOString() : value}::${sql.raw(students[key].getSQLType())}`;
  };
  return selectRawRows<{ id: number }>(
    db,
    sql`insert into ${students} (${sql.join(
      REGISTERED.map((key) => sql.identifier(students[key].name)),
      sql`, `,
    )})
      select ${sql.join(REGISTERED.map(valueOf), sql`, `)}
      from ${courts}
      where ${courts.id} = ${values.courtId}::int and ${fromCourt.rulesProfileVersion} is not null and ${underLimits}
      on conflict do nothing
      returning ${students.id}`,
  );
}

/** Whose guess a public registration's duplicate probe is: the typed licence, from the client's address. */
function probeOf(input: Registration, probe: { ip: string }) {
  return { scope: 'student', subject: input.dl_number, ip: probe.ip } as const;
}

/**
 * Spec 4: an active enrolment with the same email or licence number answers 409 with its
 * studentId. For a public registration (`probe`) that answer tells a stranger whether a licence
 * is enrolled, and its reset token can archive the course, so (decision 004) each duplicate found
 * counts as a failed sign-in guess for the typed licence and the client's address (the 6th in 15
 * minutes answers 429), and the token is issued only when last name, licence number and date of
 * birth all match the enrolment. A manual enrolment by staff (`probe` null) is neither throttled
 * nor offered a token.
 */
async function assertNoActiveDuplicate(
  db: Db,
  clock: Clock,
  input: Registration,
  dob: string,
  probe: { ip: string } | null,
): Promise<void> {
  // Every active enrolment holding the email or the licence number: one, or two different ones.
  // Prepared once (decision 030): every registration that does not insert at once asks it.
  const findMatches = (tx: Db) =>
    prepareOnce(tx, 'find_registration_matches', (database) =>
      database
        .select({
          id: students.id,
          email: students.email,
          dlNumber: students.dlNumber,
          lastName: students.lastName,
          dob: students.dob,
          paid: sql<boolean>`${students.paymentAt} is not null`,
        })
        .from(students)
        .where(
          and(
            isNull(students.archivedAt),
            or(eq(students.email, sql.placeholder('email')), eq(students.dlNumber, sql.placeholder('dlNumber'))),
          ),
        )
        .orderBy(sql`${students.dlNumber} = ${sql.placeholder('dlNumber')}::text desc`, students.id)
        .prepare('find_registration_matches'),
    ).execute({ email: input.email, dlNumber: input.dl_number });
  if (!probe) {
    const [existing] = await findMatches(db);
    if (existing) throw duplicateAccount(existing.id, undefined);
    return;
  }
  const who = probeOf(input, probe);
  const duplicate = await withGuessThrottle(db, clock, who, async (tx, recordFailure) => {
    const matches = await findMatches(tx);
    const [existing] = matches;
    if (!existing) return null;
    await recordFailure();
    // Decision 026: a second enrolment holding the other detail is not replaced by resetting this
    // one, so no reset is offered: archiving this one would leave the new registration refused.
    const other = matches.find((match) => match.id !== existing.id);
    const provesIdentity =
      existing.dlNumber === input.dl_number &&
      existing.lastName.trim().toLowerCase() === input.last_name.trim().toLowerCase() &&
      existing.dob === dob;
    const resetToken = provesIdentity && !other ? await issueResetToken(tx, clock, existing.id, input) : undefined;
    return {
      studentId: existing.id,
      resetToken,
      inUse: other ? (other.email === input.email ? ('email' as const) : ('dl_number' as const)) : undefined,
      // Told only to whoever proved it is their enrolment (the token's condition).
      paid: resetToken ? existing.paid : undefined,
    };
  });
  // Thrown after the transaction commits, so the counted guess stays counted.
  if (duplicate) throw duplicateAccount(duplicate.studentId, duplicate.resetToken, duplicate.inUse, duplicate.paid);
}

function duplicateAccount(
  studentId: number,
  resetToken: string | undefined,
  inUse?: 'email' | 'dl_number',
  paid?: boolean,
): AppError {
  return new AppError('DUPLICATE_ACCOUNT', DUPLICATE_MESSAGE, {
    studentId,
    ...(resetToken ? { resetToken } : {}),
    ...(inUse ? { in_use: inUse } : {}),
    ...(paid === undefined ? {} : { paid }),
  });
}

/** A short-lived, single-use token for resetCourse (decision 004); only its hash is kept. */
async function issueResetToken(
  db: Db,
  clock: Clock,
  studentId: number,
  registration: { email: string; dl_number: string },
): Promise<string> {
  const resetToken = createToken();
  await db.insert(resetTokens).values({
    tokenHash: hashToken(resetToken),
    studentId,
    email: registration.email,
    dlNumber: registration.dl_number,
    createdAt: clock.now(),
    expiresAt: new Date(clock.now().getTime() + RESET_TOKEN_MINUTES * 60_000),
  });
  return resetToken;
}

/**
 * Archives an enrolment so its owner can register again (spec 4, "Continue and Register").
 * Allowed only with a valid single-use reset token for that enrolment, which the duplicate
 * registration hands out when it proves the enrolment's identity (decision 004). Not even the
 * enrolment's own session may do it without one (decision 004): a stolen or shared session must not
 * be able to wipe a paid course. Nothing is deleted: the row keeps its progress, payments and
 * certificates. Its open PaymentIntents are canceled once it is archived (decision 042).
 */
export async function resetStudentCourse(
  db: Db,
  context: PaymentContext,
  input: { studentId: number; resetToken: string | undefined },
): Promise<{ archivedStudentId: number }> {
  const { clock } = context;
  const now = clock.now();
  const reset = await db.transaction(async (tx) => {
    if (!input.resetToken) throw forbidden('This course can only be reset from the registration that found it.');
    const [used] = await tx
      .update(resetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(resetTokens.tokenHash, hashToken(input.resetToken)),
          eq(resetTokens.studentId, input.studentId),
          isNull(resetTokens.usedAt),
          gt(resetTokens.expiresAt, now),
        ),
      )
      .returning({ studentId: resetTokens.studentId, email: resetTokens.email, dlNumber: resetTokens.dlNumber });
    if (!used) throw forbidden('This reset link is not valid any more. Please register again.');
    // Decision 026: every detail of the registration that follows must be free once this enrolment is
    // archived; otherwise nothing changes (this transaction, the token's use included, rolls back).
    // (A token from before the check was added names neither detail; it expires within 30 minutes.)
    const held = [
      used.email === null ? undefined : eq(students.email, used.email),
      used.dlNumber === null ? undefined : eq(students.dlNumber, used.dlNumber),
    ].filter((condition) => condition !== undefined);
    const [other] =
      held.length === 0
        ? []
        : await tx
            .select({ id: students.id, email: students.email })
            .from(students)
            .where(and(isNull(students.archivedAt), ne(students.id, input.studentId), or(...held)))
            .limit(1);
    if (other) throw duplicateAccount(other.id, undefined, other.email === used.email ? 'email' : 'dl_number');
    const [archived] = await tx
      .update(students)
      .set({ archivedAt: now, archiveReason: 'replaced_by_new_registration' })
      .where(and(eq(students.id, input.studentId), isNull(students.archivedAt)))
      .returning({ id: students.id });
    if (!archived) throw new AppError('NOT_FOUND', 'No active course was found for this student.');
    await endStudentSessions(tx, clock, archived.id);
    return { archivedStudentId: archived.id };
  });
  // Decision 042: a pay tab still open for the archived enrolment must not take its money.
  await cancelOpenPaymentIntents(db, context, reset.archivedStudentId);
  return reset;
}

/**
 * Spec 4 retake: once the course is complete the student may start over. The enrolment is
 * archived (its progress, payments and certificates stay on record) and its sessions end; the
 * student registers and pays again.
 */
export async function retakeCourse(db: Db, context: PaymentContext, studentId: number): Promise<void> {
  const { clock } = context;
  await db.transaction(async (tx) => {
    const [archived] = await tx
      .update(students)
      .set({ archivedAt: clock.now(), archiveReason: 'retake' })
      .where(and(eq(students.id, studentId), isNull(students.archivedAt), isNotNull(students.completedAt)))
      .returning({ id: students.id });
    if (!archived) {
      throw new AppError('COURSE_NOT_COMPLETE', 'The course can be retaken once the final exam is passed.');
    }
    await endStudentSessions(tx, clock, studentId);
  });
  // Decision 042: no open PaymentIntent of the archived enrolment stays payable.
  await cancelOpenPaymentIntents(db, context, studentId);
}

/** Deletes reset-course tokens that were used or expired (the retention job, decision 014). */
export async function purgeDeadResetTokens(tx: Db, now: Date): Promise<number> {
  const purged = await tx
    .delete(resetTokens)
    .where(or(isNotNull(resetTokens.usedAt), lt(resetTokens.expiresAt, now)))
    .returning({ tokenHash: resetTokens.tokenHash });
  return purged.length;
}
