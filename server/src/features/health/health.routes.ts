import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { healthApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { prepareStatement } from '../../db/raw-rows.ts';
import { PUBLIC, serve } from '../../plugins/endpoint.ts';
import { describePublicConfig } from './public-config.ts';

export function registerHealthRoutes(app: FastifyInstance, { db, config, payments }: AppDeps): void {
  // A database that cannot be reached makes this a 503 (plugins/errors.ts), which a load balancer reads as down.
  serve(app, healthApi.health, PUBLIC, async () => {
    // Prepared, as a hot query is (load balancers ask often): on PGlite a statement it keeps; on
    // PostgreSQL it waits behind calls under way, as a call's first statement (decision 034).
    await prepareStatement(db, 'health_check', () => sql`select 1`, { opensCall: true }).execute();
    return { status: 'ok' as const, database: 'ok' as const };
  });

  const publicConfig = describePublicConfig({ config, payments });
  serve(app, healthApi.publicConfig, PUBLIC, async () => publicConfig);
}
