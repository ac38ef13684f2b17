import type { FastifyInstance } from 'fastify';
import { courtApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { serve, staffRoles } from '../../plugins/endpoint.ts';
import { acknowledgeCompletion, listCourtCompletions } from './court-view.service.ts';

/**
 * A court's own staff (a clerk or admin limited to the court) see and
 * acknowledge their court's completions; admins and super admins over every court see any
 * court's, read-only; a school clerk over every court has no use for it (403).
 */
export function registerCourtViewRoutes(app: FastifyInstance, { db, clock, config, mailer }: AppDeps): void {
  serve(app, courtApi.completions, staffRoles(...courtApi.completions.staffRoles), async ({ query, auth }) =>
    listCourtCompletions(db, { courtId: auth.courtId ?? query.courtId ?? null }, query),
  );

  serve(
    app,
    courtApi.acknowledge,
    staffRoles(...courtApi.acknowledge.staffRoles),
    async ({ params, auth, request }) => {
      // The endpoint names only court-limited roles, so the court is always known.
      if (auth.courtId === null) throw new Error('a court-limited role without a court');
      return acknowledgeCompletion(
        db,
        { clock, config, mailer, log: request.log },
        { staffId: auth.staffId, courtId: auth.courtId, number: params.number },
      );
    },
  );
}
