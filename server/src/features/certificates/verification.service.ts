import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { certificates, courts, students } from '../../db/schema.ts';
import { maskName } from './certificate-dates.ts';

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
      // The correction's reissue that replaced it, if one did (decision 041).
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
