import type { FastifyInstance } from 'fastify';
import { getPaymentAmount as getPaymentAmountEndpoint } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PUBLIC, serve } from '../../plugins/endpoint.ts';
import { getPaymentAmount } from './payments.service.ts';

export function registerPaymentRoutes(app: FastifyInstance, { db, config }: AppDeps): void {
  // Public (spec 7: /public/...): the payment page runs with no session.
  serve(app, getPaymentAmountEndpoint, PUBLIC, async ({ params }) => ({
    paymentAmount: await getPaymentAmount(db, params.studentId, config.coursePriceCents),
  }));
}
