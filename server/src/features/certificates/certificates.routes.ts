import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  getLatestCertificate,
  issueCertificate as issueCertificateEndpoint,
  resendCertificateDelivery,
  listCertificates,
  RESEND_DELIVERY_ROLES,
  searchCertificateArchive,
  text,
  verifyCertificate,
} from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { ANY_STAFF, declareAccess, PUBLIC, SIGNED_IN, serve, staffRoles } from '../../plugins/endpoint.ts';
import { badRequest, forbidden, notFound } from '../../plugins/errors.ts';
import { canSeeStudent, getVisibleStudent } from '../../plugins/policies.ts';
import { localDate } from '../../platform/clock.ts';
import { parseCompletionDate } from './certificate-dates.ts';
import {
  courseNotComplete,
  findCertificateFile,
  findDeliveryOwner,
  getCertificateOf,
  issueCertificate,
  listCertificatesOf,
  searchArchive,
  verifyCertificateNumber,
} from './certificates.service.ts';
import { resendDelivery } from './deliveries.service.ts';
import { getLinkKey, isValidDownloadSignature } from './download-links.ts';

/** Lookups by certificate number from outside (the QR code's /verify, PDF downloads), per address. */
const PUBLIC_LOOKUP_LIMIT = { max: 30, timeWindow: '1 minute' };

export function registerCertificateRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  const context = { clock, config };

  // Spec 7: the student's call after a final pass, or (?noEmail=1) a super_admin's new certificate.
  serve(app, issueCertificateEndpoint, SIGNED_IN, async ({ query, body, auth }) => {
    const student = await getVisibleStudent(db, auth, body.studentId);
    if (query.noEmail === '1') {
      if (auth.kind !== 'staff' || auth.role !== 'super_admin')
        throw forbidden('Only a super admin issues a new certificate.');
      // A new certificate replaces one the student earned: never one for a course not finished (issue 13).
      if (!student.completedAt) throw courseNotComplete();
      const completionDate = parseCompletionDate(body.completionDate ?? '', clock.now());
      if (!completionDate) throw badRequest('Please enter a past completion date written like January 1, 2023.');
      const issued = await db.transaction((tx) =>
        issueCertificate(tx, context, {
          studentId: student.id,
          source: 'admin',
          completionDate,
          staffId: auth.staffId,
          email: false,
        }),
      );
      return getCertificateOf(db, student.id, issued.id);
    }
    if (auth.kind !== 'student') throw forbidden('Staff issue certificates with a completion date (noEmail=1).');
    if (!student.completedAt) throw courseNotComplete();
    const completionDate = localDate(student.completedAt, config.schoolTimeZone);
    const issued = await db.transaction((tx) =>
      issueCertificate(tx, context, {
        studentId: student.id,
        source: 'completion',
        completionDate,
        email: true,
      }),
    );
    return getCertificateOf(db, student.id, issued.id);
  });

  serve(app, getLatestCertificate, SIGNED_IN, async ({ params, auth }) => {
    await getVisibleStudent(db, auth, params.id);
    const [latest] = await listCertificatesOf(db, params.id);
    if (!latest) throw notFound('No certificate yet.');
    return { url: latest.url, number: latest.number };
  });

  serve(app, listCertificates, SIGNED_IN, async ({ params, auth }) => {
    await getVisibleStudent(db, auth, params.studentId);
    return listCertificatesOf(db, params.studentId);
  });

  // Decision 010: an admin sends a certificate email again, from the dead letter or to repeat it.
  // The roles come from the contract, which the admin student page reads to show its Resend.
  serve(app, resendCertificateDelivery, staffRoles(...RESEND_DELIVERY_ROLES), async ({ params, auth }) => {
    const owner = await findDeliveryOwner(db, params.id);
    if (!owner || !canSeeStudent(auth, owner)) throw notFound('No such delivery.');
    await resendDelivery(db, clock, params.id, auth.staffId);
    return { status: 'queued' as const };
  });

  serve(app, searchCertificateArchive, ANY_STAFF, async ({ params, auth }) =>
    searchArchive(db, params.id, auth.courtId),
  );

  // Public, for the QR code: says only whether the number is genuine, and is rate-limited.
  serve(app, verifyCertificate, PUBLIC, async ({ params }) => verifyCertificateNumber(db, params.number), {
    rateLimit: PUBLIC_LOOKUP_LIMIT,
  });

  // The PDF: for its owner, staff whose scope covers the student, or a signed link from an email.
  // Anyone else gets 404 for every number, real or not, under the same limit as /verify: numbers
  // are sequential, so a different answer for a real one would be an oracle (issue 13).
  const DownloadParams = z.object({ number: text().min(1).max(40) });
  const DownloadQuery = z.object({
    expires: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    signature: text().max(100).optional(),
  });
  const noSuchCertificate = () => notFound('No such certificate.');
  declareAccess(app, 'GET', '/api/certificates/:number/pdf', PUBLIC);
  app.get(
    '/api/certificates/:number/pdf',
    { schema: { hide: true }, config: { rateLimit: PUBLIC_LOOKUP_LIMIT } },
    async (request, reply) => {
      const params = DownloadParams.safeParse(request.params);
      if (!params.success) throw noSuchCertificate();
      const query = DownloadQuery.safeParse(request.query);
      const signed =
        query.success &&
        isValidDownloadSignature(
          await getLinkKey(db),
          params.data.number,
          query.data.expires,
          query.data.signature,
          clock.now(),
        );
      const auth = signed ? null : await request.getAuth();
      if (!signed && !auth) throw noSuchCertificate();
      const file = await findCertificateFile(db, params.data.number);
      if (!file) throw noSuchCertificate();
      if (!signed && !(auth && canSeeStudent(auth, { id: file.studentId, courtId: file.courtId }))) {
        throw noSuchCertificate();
      }
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'attachment; filename="Certificate_Of_Completion.pdf"')
        .header('cache-control', 'private, no-store')
        .send(file.pdf);
    },
  );
}
