import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { CONTENT_DIR } from '../../db/content-files.ts';
import { certificates } from '../../db/schema.ts';
import { renderCertificatePdf, sha256Hex } from '../../platform/pdf/certificate-pdf.ts';
import { readCertificateSnapshot } from './certificate-snapshot.ts';

/** content/certificate/approvals.json (content/README.md): the school's approval number per state. */
const ApprovalsFileSchema = z.object({
  $comment: z.string().optional(),
  approvals: z.record(z.string().regex(/^[A-Z]{2}$/, 'a state is its two capital letters'), z.string().trim().min(1)),
});

/** What the certificate prints from content/certificate/ (decision 062). */
export interface CertificateContent {
  /** State ('CA') to the school's approval number there. */
  approvals: ReadonlyMap<string, string>;
  /** signature.png, drawn above the signature line; absent: the line is left for no image. */
  signaturePng: Uint8Array | undefined;
}

/** Reads content/certificate/; a missing folder or file is no approval and no signature image, a bad one stops. */
export function readCertificateContent(contentDir = CONTENT_DIR): CertificateContent {
  const folder = path.join(contentDir, 'certificate');
  const approvalsFile = path.join(folder, 'approvals.json');
  const signatureFile = path.join(folder, 'signature.png');
  let approvals: Record<string, string> = {};
  if (existsSync(approvalsFile)) {
    try {
      approvals = ApprovalsFileSchema.parse(JSON.parse(readFileSync(approvalsFile, 'utf8'))).approvals;
    } catch (error) {
      throw new Error(`${approvalsFile}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  return {
    approvals: new Map(Object.entries(approvals)),
    signaturePng: existsSync(signatureFile) ? readFileSync(signatureFile) : undefined,
  };
}

let certificateContent: CertificateContent | undefined;

/**
 * A certificate's PDF, rendered from its snapshot and stored the first time it is asked for (the
 * delivery worker or a download, on any instance). Rendering is deterministic (the document is
 * dated by the snapshot's issue moment), and only the first store is kept: whoever renders
 * second returns the stored bytes, so the file and its SHA-256 never change once stored.
 * The school's address, phone, signer (configuration) and approval number and signature
 * (content/certificate/, read once per process) are the school's as the PDF is rendered
 * (decision 062).
 */
export async function ensureCertificatePdf(
  db: Db,
  config: Config,
  certificate: { id: number; number: string; snapshot: unknown; pdf: Buffer | null },
): Promise<Buffer> {
  if (certificate.pdf) return certificate.pdf;
  certificateContent ??= readCertificateContent();
  const snapshot = readCertificateSnapshot(certificate.snapshot);
  const approvalNumber = snapshot.courtState ? certificateContent.approvals.get(snapshot.courtState) : undefined;
  const rendered = Buffer.from(
    await renderCertificatePdf(snapshot, {
      schoolName: config.schoolName,
      schoolAddress: config.schoolAddress,
      schoolPhone: config.schoolPhone,
      signer: config.certificateSigner,
      approval:
        snapshot.courtState && approvalNumber ? { state: snapshot.courtState, number: approvalNumber } : undefined,
      signaturePng: certificateContent.signaturePng,
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
