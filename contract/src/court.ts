import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { IdParam, isCalendarDate } from './primitives.ts';

/**
 * Decision 025: the court's own view of its drivers' completions. A clerk (or admin) limited to one
 * court sees that court's; admins and super admins over every court see any court's. Only the
 * court's own staff acknowledge receipt: the school never signs for the court.
 */

export const CourtCompletionSchema = z.object({
  certificate_number: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  dl_number: z.string(),
  /** null when the student gave none. */
  case_number: z.string().nullable(),
  /** The completion date the certificate states (YYYY-MM-DD). */
  completed_at: z.string(),
  /** When the court's copy was emailed (ISO), or null (not yet, or the court is not emailed). */
  court_email_sent_at: z.string().nullable(),
  /** When the court's staff acknowledged receipt (ISO), or null. */
  acknowledged_at: z.string().nullable(),
});
export type CourtCompletion = z.infer<typeof CourtCompletionSchema>;

export const COURT_COMPLETIONS_PAGE_SIZE = 50;

/** Whether YYYY-MM-DD names a day the calendar has (not 2024-02-30, not 2024-13-45). */
function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [yyyy, mm, dd] = value.split('-').map(Number) as [number, number, number];
  return isCalendarDate(yyyy, mm, dd);
}

// A day the database can compare with: the shape alone let 2024-13-45 through to a 500.
const IsoDay = z.string().refine(isCalendarDay, 'A date is a calendar day, YYYY-MM-DD.');

export const CourtCompletionsQuerySchema = z.object({
  from: IsoDay.optional(),
  to: IsoDay.optional(),
  /** Part of a name, a licence number or a case number. */
  search: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  /** Admins and super admins only: one court (all courts without it). Ignored for a court's own staff. */
  courtId: IdParam.optional(),
});

const listCourtCompletions = defineEndpoint({
  method: 'GET',
  path: '/api/court/completions',
  // A court's own staff, and admins over every court; a school clerk has no use for it (decision 025).
  staffRoles: ['super_admin', 'admin', 'court_admin', 'court_clerk'],
  query: CourtCompletionsQuerySchema,
  errors: ['NOT_FOUND'],
  response: z.object({
    rows: z.array(CourtCompletionSchema),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  }),
});

const acknowledgeCompletion = defineEndpoint({
  method: 'POST',
  path: '/api/court/completions/:number/acknowledge',
  // Only the court's own staff sign for the court (decision 025).
  staffRoles: ['court_admin', 'court_clerk'],
  params: z.object({ number: z.string().min(1).max(40) }),
  errors: ['NOT_FOUND'],
  response: CourtCompletionSchema,
});

export const courtApi = {
  completions: listCourtCompletions,
  acknowledge: acknowledgeCompletion,
} as const;
