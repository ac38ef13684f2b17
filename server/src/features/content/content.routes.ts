import type { FastifyInstance } from 'fastify';
import { listChapters as listChaptersEndpoint } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve } from '../../plugins/endpoint.ts';
import { listChapters } from './content.service.ts';

export function registerContentRoutes(app: FastifyInstance, { db }: AppDeps): void {
  // Every course call needs a signed-in student who has paid (issue 3: 402 otherwise).
  serve(app, listChaptersEndpoint, PAID_STUDENT, async () => listChapters(db));
}
