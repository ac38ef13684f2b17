import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { ANY_STAFF_ROLES } from './staff-access.ts';

/** Dashboard (spec 2 /admin, 3 Stats and Report rows, 9 windows). */

/** The dashboard's figures, each a stable key the page translates, with how to show its value. */
export const StatNameSchema = z.enum([
  'registrations',
  'payments',
  'revenue',
  'completions',
  'final_pass_rate',
  'certificates_issued',
  'students_in_progress',
  'unpaid_registrations',
  'failed_deliveries',
  'average_days_to_complete',
]);
export type StatName = z.infer<typeof StatNameSchema>;

export const StatSchema = z.object({
  name: StatNameSchema,
  /** null when there is nothing to measure yet (a pass rate with no final attempts). */
  value: z.number().nullable(),
  unit: z.enum(['count', 'cents', 'percent', 'days']),
});
export type Stat = z.infer<typeof StatSchema>;

const getAdminStats = defineEndpoint({
  method: 'GET',
  path: '/api/admin/stats',
  // The whole school's figures: not for staff limited to one court (decision 011).
  staffRoles: ['super_admin', 'admin', 'clerk'],
  response: z.array(StatSchema),
});

export const ReportRowSchema = z.object({
  court_id: z.number().int(),
  court_name: z.string(),
  seven_day: z.number().int(),
  thirty_day: z.number().int(),
  sixty_day: z.number().int(),
  ninety_day: z.number().int(),
  total: z.number().int(),
});
export type ReportRow = z.infer<typeof ReportRowSchema>;

/** Completions per court over 7, 30, 60 and 90 days and in total. */
const getAdminReport = defineEndpoint({
  method: 'GET',
  path: '/api/admin/report',
  staffRoles: ANY_STAFF_ROLES,
  response: z.array(ReportRowSchema),
});

/** The calls of the server's dashboard feature. */
export const dashboardApi = {
  stats: getAdminStats,
  report: getAdminReport,
} as const;
