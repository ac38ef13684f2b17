import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { certificates, students } from '../../db/schema.ts';
import { canSeeStudent } from '../../plugins/policies.ts';
import { notFound } from '../../plugins/errors.ts';
import type { Auth } from '../../plugins/session.ts';
import { ensureCertificatePdf } from './certificate-pdf.service.ts';
import { getLinkKey, isValidDownloadSignature } from './download-links.ts';
import type { IssueContext } from './issuing.service.ts';

/**
 * The PDF: for a signed link from an email, its owner, or staff whose scope covers the student.
 * Anyone else gets 404 for every number, real or not: numbers are sequential, so a different
 * answer for a real one would be an oracle (decision 016). The caller is resolved only when the link
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
