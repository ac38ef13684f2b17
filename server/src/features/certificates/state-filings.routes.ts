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

/** The state filing path (decision 024): who may walk it is on each endpoint of the contract. */
export function registerStateFilingRoutes(app: FastifyInstance, { db, clock }: AppDeps): void {
  serve(app, stateFilingsApi.overview, staffRoles(...stateFilingsApi.overview.staffRoles), async ({ query }) =>
    getStateFilingsOverview(db, query.state),
  );
  serve(app, stateFilingsApi.export, staffRoles(...stateFilingsApi.export.staffRoles), async ({ body, auth }) =>
    exportStateFiling(db, clock, { staffId: auth.staffId, state: body.state }),
  );
  serve(app, stateFilingsApi.filing, staffRoles(...stateFilingsApi.filing.staffRoles), async ({ params }) =>
    getStateFilingWithRows(db, params.id),
  );
  serve(app, stateFilingsApi.mark, staffRoles(...stateFilingsApi.mark.staffRoles), async ({ params, body, auth }) =>
    markStateFiling(db, clock, { staffId: auth.staffId, id: params.id, outcome: body }),
  );
}
