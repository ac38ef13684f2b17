import type { FastifyInstance } from 'fastify';
import { emailsApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { serve, staffRoles } from '../../plugins/endpoint.ts';
import { listEmailTemplates, previewEmailTemplate } from './preview.service.ts';

/** Decision 057: staff preview every email template in each of its languages. */
export function registerEmailPreviewRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, emailsApi.list, staffRoles(...emailsApi.list.staffRoles), () => Promise.resolve(listEmailTemplates()));

  serve(app, emailsApi.preview, staffRoles(...emailsApi.preview.staffRoles), async ({ params, query }) =>
    previewEmailTemplate(deps, params.name, query.language),
  );
}
