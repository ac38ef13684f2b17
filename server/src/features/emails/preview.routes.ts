import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EmailLanguageSchema, EmailTemplateNameSchema, emailsApi, policyRoleOf } from '@ts/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { declareAccess, serve, staffRoles } from '../../plugins/endpoint.ts';
import { forbidden, notFound, unauthenticated, validationFailed } from '../../plugins/errors.ts';
import { listEmailTemplates, previewEmailTemplate } from './preview.service.ts';

/**
 * Decision 057: the email's HTML as a document of its own, for the preview page's frame. The
 * app's pages forbid inline styles (decision 020), and a frame written from the page (srcdoc)
 * inherits that policy, so an email, whose styles are all inline as mail clients need, would show
 * unstyled there. This answer carries its own policy instead: inline styles and nothing else (no
 * script, no request anywhere: default-src 'none'), in a sandbox that gives it an origin of its
 * own. The sandbox lets scripts be evaluated only so that tools reading the page (axe, the browser
 * tests) can read the frame too; the policy still runs none of the document's own.
 */
const EMAIL_DOCUMENT_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; sandbox allow-scripts";

const PreviewQuery = z.object({ language: EmailLanguageSchema.default('en') });

/** The preview's roles, checked as serve checks a contract call's (401, then 403). */
async function authorizePreview(request: FastifyRequest): Promise<void> {
  const auth = await request.getAuth();
  if (!auth) throw unauthenticated();
  if (auth.kind !== 'staff' || !emailsApi.preview.staffRoles.some((role) => role === policyRoleOf(auth))) {
    throw forbidden();
  }
}

/** Staff preview every email template in each of its languages (decision 057). */
export function registerEmailPreviewRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, emailsApi.list, staffRoles(...emailsApi.list.staffRoles), () => Promise.resolve(listEmailTemplates()));

  serve(app, emailsApi.preview, staffRoles(...emailsApi.preview.staffRoles), async ({ params, query }) =>
    previewEmailTemplate(deps, params.name, query.language),
  );

  declareAccess(app, 'GET', '/api/admin/emails/:name/html', staffRoles(...emailsApi.preview.staffRoles));
  app.get(
    '/api/admin/emails/:name/html',
    { schema: { hide: true }, onRequest: authorizePreview },
    async (request, reply) => {
      const name = EmailTemplateNameSchema.safeParse((request.params as { name?: unknown }).name);
      if (!name.success) throw notFound('No such email template.');
      const query = PreviewQuery.safeParse(request.query);
      if (!query.success) throw validationFailed([{ field: 'language', message: 'must be en or es' }]);
      const preview = await previewEmailTemplate(deps, name.data, query.data.language);
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', EMAIL_DOCUMENT_POLICY)
        .send(preview.html);
    },
  );
}
