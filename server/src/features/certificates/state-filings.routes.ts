import type { FastifyInstance } from 'fastify';
import { stateFilingsApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { serve, staffRoles } from '../../plugins/endpoint.ts';
import {
  exportStateFiling,
  getStateFilingsOverview,
  getStateFilingWithRows,
  markStateFiling,
} from './state-filings.service.ts';

/**
 * Issue 17: the state filing path. A state's report spans every court of the state, so it is the
 * work of admins over all courts (super admins and unscoped admins); a court's own staff and
 * clerks never see it (decision 024).
 */
const STATE_FILING_STAFF = staffRoles('super_admin', 'admin');

export function registerStateFilingRoutes(app: FastifyInstance, { db, clock }: AppDeps): void {
  serve(app, stateFilingsApi.overview, STATE_FILING_STAFF, async ({ query }) =>
    getStateFilingsOverview(db, query.state),
  );
  serve(app, stateFilingsApi.export, STATE_FILING_STAFF, async ({ body, auth }) =>
    exportStateFiling(db, clock, { staffId: auth.staffId, state: body.state }),
  );
  serve(app, stateFilingsApi.filing, STATE_FILING_STAFF, async ({ params }) => getStateFilingWithRows(db, params.id));
  serve(app, stateFilingsApi.mark, STATE_FILING_STAFF, async ({ params, body, auth }) =>
    markStateFiling(db, clock, { staffId: auth.staffId, id: params.id, outcome: body }),
  );
}
