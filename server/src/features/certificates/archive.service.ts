import { and, desc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { certificates, students } from '../../db/schema.ts';
import { fileUrl } from './certificate-lists.service.ts';

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
