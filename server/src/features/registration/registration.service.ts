import { and, eq, gt, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { parseDateOfBirth, type RegistrationSchema } from '@ts/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { courts, resetTokens, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { createToken, hashToken } from '../../platform/tokens.ts';
import { AppError, badRequest, forbidden } from '../../plugins/errors.ts';
import { endStudentSessions } from '../../plugins/session.ts';

type Registration = z.output<typeof RegistrationSchema>;

export const RESET_TOKEN_MINUTES = 30;

const DUPLICATE_MESSAGE =
  "An account already exists with this email or driver's license. The new account replaces the old one and previous progress is not transferred.";

function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return (error as { code?: string }).code === '23505' || cause?.code === '23505';
}

/**
 * Spec 4 and 5: registers a new enrolment. An active enrolment with the same email or licence
 * number is a 409 carrying its studentId, and a reset token only when this registration proves
 * that enrolment's sign-in identity (decision 004).
 */
export async function registerStudent(
  db: Db,
  clock: Clock,
  input: Registration,
  enrolledByStaffId: number | null,
): Promise<{ studentId: number }> {
  const dob = parseDateOfBirth(input.dob, clock.now());
  if (!dob) throw badRequest('Date of birth is not a valid date.');
  const [court] = await db.select({ id: courts.id }).from(courts).where(eq(courts.id, input.court));
  if (!court) throw badRequest('Please choose a court from the list.');

  await assertNoActiveDuplicate(db, clock, input);
  try {
    const [created] = await db
      .insert(students)
      .values({
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
        enrolledByStaffId,
        createdAt: clock.now(),
      })
      .returning({ id: students.id });
    if (!created) throw new Error('insert returned no row');
    return { studentId: created.id };
  } catch (error) {
    // Two registrations racing past the check: the unique index decides, with the same answer.
    if (isUniqueViolation(error)) await assertNoActiveDuplicate(db, clock, input);
    throw error;
  }
}

async function assertNoActiveDuplicate(db: Db, clock: Clock, input: Registration): Promise<void> {
  const [existing] = await db
    .select({ id: students.id, dlNumber: students.dlNumber, lastName: students.lastName })
    .from(students)
    .where(
      and(isNull(students.archivedAt), or(eq(students.email, input.email), eq(students.dlNumber, input.dl_number))),
    )
    .orderBy(sql`${students.dlNumber} = ${input.dl_number} desc`)
    .limit(1);
  if (!existing) return;

  const provesIdentity =
    existing.dlNumber === input.dl_number &&
    existing.lastName.trim().toLowerCase() === input.last_name.trim().toLowerCase();
  let resetToken: string | undefined;
  if (provesIdentity) {
    resetToken = createToken();
    await db.insert(resetTokens).values({
      tokenHash: hashToken(resetToken),
      studentId: existing.id,
      createdAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + RESET_TOKEN_MINUTES * 60_000),
    });
  }
  throw new AppError(409, 'DUPLICATE_ACCOUNT', DUPLICATE_MESSAGE, {
    studentId: existing.id,
    ...(resetToken ? { resetToken } : {}),
  });
}

/**
 * Archives an enrolment so its owner can register again (spec 4, "Continue and Register").
 * Allowed with a valid single-use reset token for that enrolment, or by the enrolment's own
 * signed-in student. Nothing is deleted: the row keeps its progress, payments and certificates.
 */
export async function resetStudentCourse(
  db: Db,
  clock: Clock,
  input: { studentId: number; resetToken: string | undefined; signedInStudentId: number | null },
): Promise<{ archivedStudentId: number }> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    if (input.signedInStudentId !== input.studentId) {
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
        .returning({ studentId: resetTokens.studentId });
      if (!used) throw forbidden('This reset link is not valid any more. Please register again.');
    }
    const [archived] = await tx
      .update(students)
      .set({ archivedAt: now, archiveReason: 'replaced_by_new_registration' })
      .where(and(eq(students.id, input.studentId), isNull(students.archivedAt)))
      .returning({ id: students.id });
    if (!archived) throw new AppError(404, 'NOT_FOUND', 'No active course was found for this student.');
    await endStudentSessions(tx as unknown as Db, clock, archived.id);
    return { archivedStudentId: archived.id };
  });
}

/**
 * Spec 4 retake: once the course is complete the student may start over. The enrolment is
 * archived (its progress, payments and certificates stay on record) and its sessions end; the
 * student registers and pays again.
 */
export async function retakeCourse(db: Db, clock: Clock, studentId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [archived] = await tx
      .update(students)
      .set({ archivedAt: clock.now(), archiveReason: 'retake' })
      .where(and(eq(students.id, studentId), isNull(students.archivedAt), isNotNull(students.completedAt)))
      .returning({ id: students.id });
    if (!archived) {
      throw new AppError(409, 'COURSE_NOT_COMPLETE', 'The course can be retaken once the final exam is passed.');
    }
    await endStudentSessions(tx as unknown as Db, clock, studentId);
  });
}
