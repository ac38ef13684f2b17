import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { healthApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PUBLIC, serve } from '../../plugins/endpoint.ts';
import { describePublicConfig } from './public-config.ts';

export function registerHealthRoutes(app: FastifyInstance, { db, config, payments }: AppDeps): void {
  // A failing database query makes this a 500, which is what a load balancer needs to see.
  serve(app, healthApi.health, PUBLIC, async () => {
    await db.execute(sql`select 1`);
    return { status: 'ok' as const, database: 'ok' as const };
  });

  const publicConfig = describePublicConfig({ config, payments });
  serve(app, healthApi.publicConfig, PUBLIC, async () => publicConfig);
}
