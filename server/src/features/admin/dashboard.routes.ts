import type { FastifyInstance } from 'fastify';
import { getAdminReport, getAdminStats } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { ANY_STAFF, serve, staffRoles } from '../../plugins/endpoint.ts';
import * as dashboard from './dashboard.service.ts';

export function registerDashboardRoutes(app: FastifyInstance, { db, clock }: AppDeps): void {
  // Spec 6: court-limited admins see no dashboard stats, nor do court clerks: they are the whole
  // school's (decision 011).
  serve(app, getAdminStats, staffRoles('super_admin', 'admin', 'clerk'), async () =>
    dashboard.getAdminStats(db, clock),
  );
  // Every staff member; a court-limited admin or clerk gets their own court's row only.
  serve(app, getAdminReport, ANY_STAFF, async ({ auth }) => dashboard.getAdminReport(db, clock, auth));
}
