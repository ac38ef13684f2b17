import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { text, certificatesApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { declareAccess, PUBLIC, SIGNED_IN, serve, staffRoles } from '../../plugins/endpoint.ts';
import { notFound } from '../../plugins/errors.ts';
import { assertMaySeeStudent } from '../../plugins/policies.ts';
import { searchArchive } from './archive.service.ts';
import { getLatestCertificateOf, listCertificatesOf } from './certificate-lists.service.ts';
import { issueCertificateFor } from './certificate-requests.service.ts';
import { getCertificatePdfFor } from './downloads.service.ts';
import { verifyCertificateNumber } from './verification.service.ts';
import { resendDeliveryFor } from './deliveries.service.ts';

/** Lookups by certificate number from outside (the QR code's /verify, PDF downloads), per address. */
const PUBLIC_LOOKUP_LIMIT = { max: 30, timeWindow: '1 minute' };

export function registerCertificateRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  const context = { clock, config };

  // Spec 7: the student's call after a final pass, or (?noEmail=1) a super_admin's new certificate.
  serve(app, certificatesApi.issue, SIGNED_IN, async ({ query, body, auth }) =>
    issueCertificateFor(
      db,
      { ...context, auth },
      {
        studentId: body.studentId,
        noEmail: query.noEmail === '1',
        completionDate: body.completionDate,
      },
    ),
  );

  serve(app, certificatesApi.latest, SIGNED_IN, async ({ params, auth }) => {
    await assertMaySeeStudent(db, auth, params.id);
    const latest = await getLatestCertificateOf(db, params.id);
    return { url: latest.url, number: latest.number };
  });

  serve(app, certificatesApi.list, SIGNED_IN, async ({ params, auth }) => {
    await assertMaySeeStudent(db, auth, params.studentId);
    return listCertificatesOf(db, params.studentId);
  });

  // Decision 010: an admin sends a certificate email again, from the dead letter or to repeat it.
  // The roles come from the contract, which the admin student page reads to show its Resend.
  serve(
    app,
    certificatesApi.resendDelivery,
    staffRoles(...certificatesApi.resendDelivery.staffRoles),
    async ({ params, auth }) => {
      await resendDeliveryFor(db, { clock, auth }, { deliveryId: params.id });
      return { status: 'queued' as const };
    },
  );

  serve(
    app,
    certificatesApi.searchArchive,
    staffRoles(...certificatesApi.searchArchive.staffRoles),
    async ({ params, auth }) => searchArchive(db, params.id, auth.courtId),
  );

  // Public, for the QR code: says only whether the number is genuine, and is rate-limited.
  serve(app, certificatesApi.verify, PUBLIC, async ({ params }) => verifyCertificateNumber(db, params.number), {
    rateLimit: PUBLIC_LOOKUP_LIMIT,
  });

  // The PDF, under the same limit as /verify; getCertificatePdfFor decides who may have it.
  const DownloadParams = z.object({ number: text().min(1).max(40) });
  const DownloadQuery = z.object({
    expires: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    signature: text().max(100).optional(),
  });
  declareAccess(app, 'GET', '/api/certificates/:number/pdf', PUBLIC);
  app.get(
    '/api/certificates/:number/pdf',
    { schema: { hide: true }, config: { rateLimit: PUBLIC_LOOKUP_LIMIT } },
    async (request, reply) => {
      const params = DownloadParams.safeParse(request.params);
      if (!params.success) throw notFound('No such certificate.');
      const query = DownloadQuery.safeParse(request.query);
      const pdf = await getCertificatePdfFor(db, { clock, config }, () => request.getAuth(), {
        number: params.data.number,
        link: query.success ? query.data : null,
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'attachment; filename="Certificate_Of_Completion.pdf"')
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}
