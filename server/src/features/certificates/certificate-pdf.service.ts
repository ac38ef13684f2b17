import { and, eq, isNull } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { certificates } from '../../db/schema.ts';
import { renderCertificatePdf, sha256Hex } from '../../platform/pdf/certificate-pdf.ts';
import { readCertificateSnapshot } from './certificate-snapshot.ts';

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
    await renderCertificatePdf(readCertificateSnapshot(certificate.snapshot), {
      schoolName: config.schoolName,
      verifyUrl: `${config.publicUrl}/verify/${certificate.number}`,
      timeZone: config.schoolTimeZone,
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
