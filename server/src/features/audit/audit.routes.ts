import type { FastifyInstance } from 'fastify';
import { auditApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { serve, staffRoles } from '../../plugins/endpoint.ts';
import { listAuditLog } from './audit.service.ts';

export function registerAuditRoutes(app: FastifyInstance, { db }: AppDeps): void {
  // Decision 011: only a super_admin reads the audit log.
  serve(app, auditApi.list, staffRoles(...auditApi.list.staffRoles), async ({ query }) => listAuditLog(db, query.page));
}
