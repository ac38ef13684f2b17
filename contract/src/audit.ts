import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { PageParam } from './primitives.ts';

/** Audit log (super_admin only). */

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  staff_id: z.number().int(),
  staff_name: z.string(),
  staff_username: z.string(),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.number().int().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const getAuditLog = defineEndpoint({
  method: 'GET',
  path: '/api/admin/audit',
  staffRoles: ['super_admin'],
  query: z.object({ page: PageParam.default(1) }),
  response: z.object({
    rows: z.array(AuditEntrySchema),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  }),
});

/** The calls of the server's audit feature. */
export const auditApi = {
  list: getAuditLog,
} as const;
