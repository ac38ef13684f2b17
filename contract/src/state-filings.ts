import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { IdParam } from './primitives.ts';
import { US_STATE_CODES } from './states.ts';

/**
 * Decision 024: certificates held for a state's report (a profile's routing
 * held_for_state_report) are exported in batches for the state, then marked filed with the
 * state's confirmation reference, or rejected (their certificates can go in a new batch).
 */

/** Where a held certificate stands: in no batch yet, in a batch sent to the state, filed, or in a rejected batch only. */
export const HELD_CERTIFICATE_STATUSES = ['not_filed', 'exported', 'filed', 'rejected'] as const;

/** One certificate as a state's report needs it; also one line of the batch's CSV. */
export const StateFilingRowSchema = z.object({
  certificate_id: z.number().int(),
  certificate_number: z.string(),
  student_id: z.number().int(),
  licence_number: z.string(),
  /** The state of the student's address at registration: the licence's state as the school knows it. */
  licence_state: z.string(),
  last_name: z.string(),
  first_name: z.string(),
  /** MM/DD/YYYY, as registered. */
  date_of_birth: z.string(),
  court: z.string(),
  /** Empty when the student gave none. */
  case_number: z.string(),
  /** YYYY-MM-DD. */
  completion_date: z.string(),
  course_profile: z.string(),
  profile_version: z.number().int(),
  status: z.enum(HELD_CERTIFICATE_STATUSES),
});
export type StateFilingRow = z.infer<typeof StateFilingRowSchema>;

/** The batch file's columns, in order (documented in docs/state-filing.md). */
export const STATE_FILING_CSV_COLUMNS = [
  'certificate_number',
  'licence_number',
  'licence_state',
  'last_name',
  'first_name',
  'date_of_birth',
  'court',
  'case_number',
  'completion_date',
  'course_profile',
  'profile_version',
] as const satisfies readonly (keyof StateFilingRow)[];

export const StateFilingSchema = z.object({
  id: z.number().int(),
  state: z.string(),
  status: z.enum(['exported', 'filed', 'rejected']),
  exported_at: z.string(),
  exported_by: z.string(),
  filed_at: z.string().nullable(),
  confirmation_reference: z.string().nullable(),
  rejected_at: z.string().nullable(),
  rejection_reason: z.string().nullable(),
  certificates: z.number().int(),
});
export type StateFiling = z.infer<typeof StateFilingSchema>;

export const StateFilingsOverviewSchema = z.object({
  /** Every state with a held certificate, for the state picker. */
  states: z.array(z.string()),
  /** The state shown (null when no certificate is held anywhere). */
  state: z.string().nullable(),
  /** The chosen state's held certificates not in an open or filed batch: what the next export takes. */
  waiting: z.array(StateFilingRowSchema),
  /** The chosen state's batches, newest first. */
  filings: z.array(StateFilingSchema),
});
export type StateFilingsOverview = z.infer<typeof StateFilingsOverviewSchema>;

const StateParam = z.enum(US_STATE_CODES);

/**
 * A state's report spans every court of the state, so filing is the work of admins over all
 * courts; a court's own staff and clerks never see it (decision 024).
 */
const STATE_FILING_STAFF = ['super_admin', 'admin'] as const;

const getStateFilings = defineEndpoint({
  method: 'GET',
  path: '/api/admin/state-filings',
  staffRoles: STATE_FILING_STAFF,
  /** Without a state: the first state with held certificates. */
  query: z.object({ state: StateParam.optional() }),
  response: StateFilingsOverviewSchema,
});

/** Exports every waiting certificate of the state as one batch (refused when none waits). */
const exportStateFiling = defineEndpoint({
  method: 'POST',
  path: '/api/admin/state-filings',
  staffRoles: STATE_FILING_STAFF,
  body: z.object({ state: StateParam }),
  errors: ['NOTHING_TO_FILE'],
  response: StateFilingSchema,
  status: 201,
});

/** A batch with its certificates: what its CSV holds. */
const getStateFiling = defineEndpoint({
  method: 'GET',
  path: '/api/admin/state-filings/:id',
  staffRoles: STATE_FILING_STAFF,
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: StateFilingSchema.extend({ rows: z.array(StateFilingRowSchema) }),
});

export const MarkStateFilingSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('filed'), confirmation_reference: z.string().trim().min(1).max(100) }),
  z.object({ outcome: z.literal('rejected'), reason: z.string().trim().min(3).max(500) }),
]);
export type MarkStateFiling = z.infer<typeof MarkStateFilingSchema>;

/** Records the state's answer to an exported batch, once. */
const markStateFiling = defineEndpoint({
  method: 'POST',
  path: '/api/admin/state-filings/:id/outcome',
  staffRoles: STATE_FILING_STAFF,
  params: z.object({ id: IdParam }),
  body: MarkStateFilingSchema,
  errors: ['NOT_FOUND', 'FILING_CLOSED'],
  response: StateFilingSchema,
});

export const stateFilingsApi = {
  overview: getStateFilings,
  export: exportStateFiling,
  filing: getStateFiling,
  mark: markStateFiling,
} as const;
