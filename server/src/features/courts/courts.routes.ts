import type { FastifyInstance } from 'fastify';
import { courtsApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PUBLIC, serve } from '../../plugins/endpoint.ts';
import { listCourts } from './courts.service.ts';

export function registerCourtRoutes(app: FastifyInstance, { db }: AppDeps): void {
  serve(app, courtsApi.list, PUBLIC, async ({ query }) => listCourts(db, query.countyId));
}
