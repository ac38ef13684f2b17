import type { FastifyInstance } from 'fastify';
import { dashboardApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { serve, staffRoles } from '../../plugins/endpoint.ts';
import { getAdminReport, getAdminStats } from './dashboard.service.ts';

export function registerDashboardRoutes(app: FastifyInstance, { db, clock }: AppDeps): void {
  // Spec 6: court-limited admins see no dashboard stats, nor do court clerks: they are the whole
  // school's (decision 011).
  serve(app, dashboardApi.stats, staffRoles(...dashboardApi.stats.staffRoles), async () => getAdminStats(db, clock));
  // Every staff member; a court-limited admin or clerk gets their own court's row only.
  serve(app, dashboardApi.report, staffRoles(...dashboardApi.report.staffRoles), async ({ auth }) =>
    getAdminReport(db, { clock, auth }),
  );
}
