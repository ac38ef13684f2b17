import { asc, eq } from 'drizzle-orm';
import type { AdminStudent } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { courts, payments, staff, students } from '../../db/schema.ts';
import { notFound } from '../../plugins/errors.ts';
import { canSeeStudent } from '../../plugins/policies.ts';
import type { Auth } from '../../plugins/session.ts';
import { listCertificatesWithDeliveries } from '../certificates/certificates.service.ts';

const longDate = (date: Date) =>
  date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/**
 * Spec 2 /admin/students/{id}: everything the detail shows, for staff whose scope covers the
 * student's court (anyone else is told there is no such student).
 */
export async function getStudentDetail(db: Db, auth: Auth, studentId: number): Promise<AdminStudent> {
  const [row] = await db
    .select({ student: students, courtName: courts.name })
    .from(students)
    .innerJoin(courts, eq(courts.id, students.courtId))
    .where(eq(students.id, studentId));
  if (!row || !canSeeStudent(auth, { id: row.student.id, courtId: row.student.courtId })) {
    throw notFound('Error getting student details');
  }
  const { student } = row;
  const paymentRows = await db
    .select({ payment: payments, recordedBy: staff.name })
    .from(payments)
    .leftJoin(staff, eq(staff.id, payments.recordedByStaffId))
    .where(eq(payments.studentId, studentId))
    .orderBy(asc(payments.createdAt));
  const dobDate = new Date(`${student.dob}T00:00:00Z`);
  return {
    id: student.id,
    first_name: student.firstName,
    last_name: student.lastName,
    email: student.email,
    dl_number: student.dlNumber,
    dob: `${student.dob.slice(5, 7)}/${student.dob.slice(8, 10)}/${student.dob.slice(0, 4)}`,
    dob_formatted: longDate(dobDate),
    address: student.address,
    city: student.city,
    state: student.state,
    zip: student.zip,
    court: student.courtId,
    court_name: row.courtName,
    created_at_formatted: longDate(student.createdAt),
    payment_at: student.paymentAt?.toISOString() ?? null,
    payment_at_formatted: student.paymentAt ? longDate(student.paymentAt) : null,
    completed_at: student.completedAt?.toISOString() ?? null,
    archived_at: student.archivedAt?.toISOString() ?? null,
    payments: paymentRows.map(({ payment, recordedBy }) => ({
      method: payment.method,
      amount_cents: payment.amountCents,
      recorded_by: recordedBy,
      created_at: payment.createdAt.toISOString(),
    })),
    certificates: await listCertificatesWithDeliveries(db, studentId),
  };
}
