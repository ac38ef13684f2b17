import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Certificate } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { certificateDeliveries, certificates, students } from '../../db/schema.ts';
import { notFound } from '../../plugins/errors.ts';
import { describeTimeline } from './certificate-timeline.ts';
import { findStateFilingDates } from './state-filings.service.ts';

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
 * before the first. One prepared statement (decision 027): every student asks it once they pass.
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
