import { and, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import { type Correction, type CorrectionField, parseDateOfBirth } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { certificateCorrections, certificateDeliveries, certificates, courts, students } from '../../db/schema.ts';
import { type Clock, isoToUs } from '../../platform/clock.ts';
import { schoolEvents } from '../../platform/metrics.ts';
import { AppError, badRequest, notFound } from '../../plugins/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { issueCertificate } from './issuing.service.ts';
import { queueCertificateDeliveries, REPLACED } from './deliveries.service.ts';

/**
 * Corrections without a fee (decision 025). A student asks (one pending request at a
 * time); staff approve, which in one transaction corrects the student's record, marks the current
 * certificate superseded and issues its replacement free (same completion date, a new number,
 * naming the one it replaces: decision 062's banner on the PDF, delivered like the first); or
 * reject, with a note the student reads. Every decision is audited with the value before and after.
 */

/** The students row's property each correctable field is stored in. */
const PROPERTY = {
  first_name: 'firstName',
  last_name: 'lastName',
  dob: 'dob',
  dl_number: 'dlNumber',
  case_number: 'caseNumber',
} as const satisfies Record<CorrectionField, keyof typeof students.$inferSelect>;

/** A stored value as the student reads and types it (the date of birth as MM/DD/YYYY). */
function displayed(field: CorrectionField, stored: string | null): string {
  if (stored === null) return '';
  return field === 'dob' ? isoToUs(stored) : stored;
}

function correctionsQuery(db: Db) {
  return db
    .select({
      correction: certificateCorrections,
      firstName: students.firstName,
      lastName: students.lastName,
      courtName: courts.name,
      certificateNumber: certificates.number,
    })
    .from(certificateCorrections)
    .innerJoin(students, eq(students.id, certificateCorrections.studentId))
    .innerJoin(courts, eq(courts.id, students.courtId))
    .leftJoin(certificates, eq(certificates.id, certificateCorrections.certificateId));
}

function present(row: Awaited<ReturnType<ReturnType<typeof correctionsQuery>['execute']>>[number]): Correction {
  const { correction } = row;
  return {
    id: correction.id,
    student_id: correction.studentId,
    student_name: `${row.firstName} ${row.lastName}`,
    court_name: row.courtName,
    field: correction.field,
    old_value: correction.oldValue,
    value: correction.value,
    reason: correction.reason,
    status: correction.status,
    created_at: correction.createdAt.toISOString(),
    decided_at: correction.decidedAt?.toISOString() ?? null,
    note: correction.note,
    certificate_number: row.certificateNumber,
  };
}

async function getCorrection(db: Db, id: number): Promise<Correction> {
  const [row] = await correctionsQuery(db).where(eq(certificateCorrections.id, id));
  if (!row) throw notFound('No such correction request.');
  return present(row);
}

/** The student's certificates not superseded, newest first: the first is the one a correction names. */
function currentCertificatesQuery(db: Db, studentId: number) {
  return db
    .select({ id: certificates.id, number: certificates.number, completionDate: certificates.completionDate })
    .from(certificates)
    .where(and(eq(certificates.studentId, studentId), isNull(certificates.supersededAt)))
    .orderBy(desc(certificates.issuedAt), desc(certificates.id));
}

/** A student asks for one detail to be corrected; refused while another request waits, or before any certificate. */
export async function requestCorrection(
  db: Db,
  clock: Clock,
  input: { studentId: number; field: CorrectionField; value: string; reason: string },
): Promise<Correction> {
  if ((await currentCertificatesQuery(db, input.studentId).limit(1)).length === 0) {
    throw new AppError('COURSE_NOT_COMPLETE', 'There is no certificate to correct yet.');
  }
  const [student] = await db
    .select({ stored: students[PROPERTY[input.field]] })
    .from(students)
    .where(eq(students.id, input.studentId));
  if (!student) throw notFound('No such student.');
  if (displayed(input.field, student.stored) === input.value) {
    throw badRequest('That is already what your certificate says.');
  }
  try {
    const [created] = await db
      .insert(certificateCorrections)
      .values({
        studentId: input.studentId,
        field: input.field,
        oldValue: displayed(input.field, student.stored),
        value: input.value,
        reason: input.reason,
        status: 'pending',
        createdAt: clock.now(),
      })
      .returning({ id: certificateCorrections.id });
    if (!created) throw new Error('correction was not saved');
    return await getCorrection(db, created.id);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError(
        'CORRECTION_PENDING',
        'You already have a correction request waiting. We will answer it soon.',
      );
    }
    throw error;
  }
}

/** Corrections, newest first: one student's, or (for staff) by status, within the caller's court. */
export async function listCorrections(
  db: Db,
  filter: { studentId?: number; status?: Correction['status']; courtId: number | null },
): Promise<Correction[]> {
  const conditions: (SQL | undefined)[] = [
    filter.studentId === undefined ? undefined : eq(certificateCorrections.studentId, filter.studentId),
    filter.status === undefined ? undefined : eq(certificateCorrections.status, filter.status),
    filter.courtId === null ? undefined : eq(students.courtId, filter.courtId),
  ];
  const rows = await correctionsQuery(db)
    .where(and(...conditions))
    .orderBy(desc(certificateCorrections.createdAt), desc(certificateCorrections.id));
  return rows.map(present);
}

/**
 * The pending request, locked, if the caller's court scope covers it (404 otherwise; 409 once
 * decided). `archived` says whether its enrolment was archived since it was asked.
 */
async function lockPending(tx: Db, id: number, courtId: number | null) {
  const [row] = await tx
    .select({ correction: certificateCorrections, courtId: students.courtId, archivedAt: students.archivedAt })
    .from(certificateCorrections)
    .innerJoin(students, eq(students.id, certificateCorrections.studentId))
    .where(eq(certificateCorrections.id, id))
    .for('update', { of: certificateCorrections });
  if (!row || (courtId !== null && row.courtId !== courtId)) throw notFound('No such correction request.');
  if (row.correction.status !== 'pending') {
    throw new AppError('CORRECTION_DECIDED', 'This request has already been approved or rejected.');
  }
  return { ...row.correction, archived: row.archivedAt !== null };
}

/**
 * Approves a request, all or nothing: the record corrected, the current certificate superseded,
 * its free replacement issued and queued to the student and the court (or held for the state)
 * exactly as the first was, the request closed, the audit written.
 */
export async function approveCorrection(
  db: Db,
  context: { clock: Clock; config: Config },
  input: { id: number; staffId: number; courtId: number | null },
): Promise<Correction> {
  try {
    await db.transaction(async (tx) => {
      const correction = await lockPending(tx, input.id, input.courtId);
      // The student started over (or was reset) since asking: the archived enrolment stays as it
      // was, and its certificate is not reissued to the court; the request can still be rejected.
      if (correction.archived) {
        throw new AppError(
          'ENROLMENT_ARCHIVED',
          "This request's enrolment has been archived: reject it with a note; the student can ask again on their current enrolment.",
        );
      }
      // Every certificate of the student still current (a staff-issued one too) is replaced: none
      // may stay valid with the uncorrected detail. The newest is the one the correction names.
      const currents = await currentCertificatesQuery(tx, correction.studentId).for('update');
      const [current] = currents;
      if (!current) throw new AppError('COURSE_NOT_COMPLETE', 'There is no certificate to correct.');
      const stored = correction.field === 'dob' ? parseDateOfBirth(correction.value) : correction.value;
      // Checked as the registration form checks it when the student asked.
      if (stored === null) throw new Error('a requested date of birth no longer parses');
      await tx
        .update(students)
        .set({ [PROPERTY[correction.field]]: stored })
        .where(eq(students.id, correction.studentId));
      const now = context.clock.now();
      const replacedIds = currents.map((certificate) => certificate.id);
      await tx.update(certificates).set({ supersededAt: now }).where(inArray(certificates.id, replacedIds));
      // The replaced certificates' emails not yet sent never go: the replacement's do.
      await tx
        .update(certificateDeliveries)
        .set({ status: 'cancelled', lastError: REPLACED })
        .where(
          and(inArray(certificateDeliveries.certificateId, replacedIds), eq(certificateDeliveries.status, 'queued')),
        );
      const reissued = await issueCertificate(tx, context, {
        studentId: correction.studentId,
        source: 'correction',
        completionDate: current.completionDate,
        staffId: input.staffId,
        replaces: { id: current.id, number: current.number },
      });
      await queueCertificateDeliveries(tx, context.clock, reissued);
      // Each replaced certificate names the reissue, the newest by replacesId and the others by
      // this alone, so /verify sends a reader of any of them to the reissue.
      await tx.update(certificates).set({ supersededById: reissued.id }).where(inArray(certificates.id, replacedIds));
      await tx
        .update(certificateCorrections)
        .set({ status: 'approved', decidedAt: now, decidedByStaffId: input.staffId, certificateId: reissued.id })
        .where(eq(certificateCorrections.id, input.id));
      await recordAudit(tx, context.clock, {
        staffId: input.staffId,
        action: 'approve_correction',
        entityType: 'correction',
        entityId: input.id,
        before: {
          student_id: correction.studentId,
          [correction.field]: correction.oldValue,
          certificate: current.number,
        },
        after: { student_id: correction.studentId, [correction.field]: correction.value, certificate: reissued.number },
      });
    });
    // Counted once the transaction has committed (decision 060).
    schoolEvents.certificatesIssued.inc();
  } catch (error) {
    // A corrected licence number another active enrolment already holds: nothing changed, and
    // the staff member is told so without learning whose enrolment it is.
    if (isUniqueViolation(error)) {
      throw badRequest('This licence number cannot be used: the request stays waiting. Reject it with a note.');
    }
    throw error;
  }
  return getCorrection(db, input.id);
}

/** Rejects a request with a note the student reads; audited. */
export async function rejectCorrection(
  db: Db,
  clock: Clock,
  input: { id: number; staffId: number; courtId: number | null; note: string },
): Promise<Correction> {
  await db.transaction(async (tx) => {
    const correction = await lockPending(tx, input.id, input.courtId);
    await tx
      .update(certificateCorrections)
      .set({ status: 'rejected', decidedAt: clock.now(), decidedByStaffId: input.staffId, note: input.note })
      .where(eq(certificateCorrections.id, input.id));
    await recordAudit(tx, clock, {
      staffId: input.staffId,
      action: 'reject_correction',
      entityType: 'correction',
      entityId: input.id,
      before: { status: 'pending', [correction.field]: correction.value },
      after: { status: 'rejected', note: input.note },
    });
  });
  return getCorrection(db, input.id);
}
