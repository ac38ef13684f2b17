import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { healthApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { selectRawRows } from '../../db/raw-rows.ts';
import { PUBLIC, serve } from '../../plugins/endpoint.ts';
import { describePublicConfig } from './public-config.ts';

export function registerHealthRoutes(app: FastifyInstance, { db, config, payments }: AppDeps): void {
  // A database that cannot be reached makes this a 503 (plugins/errors.ts), which a load balancer reads as down.
  serve(app, healthApi.health, PUBLIC, async () => {
    await selectRawRows(db, sql`select 1`);
    return { status: 'ok' as const, database: 'ok' as const };
  });

  const publicConfig = describePublicConfig({ config, payments });
  serve(app, healthApi.publicConfig, PUBLIC, async () => publicConfig);
}
