import type { FastifyInstance } from 'fastify';
import { getPaymentAmount as getPaymentAmountEndpoint, markStudentPaid } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PUBLIC, serve, staffRoles } from '../../plugins/endpoint.ts';
import { getPaymentAmount, markStudentPaidManually } from './payments.service.ts';

export function registerPaymentRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  // Public (spec 7: /public/...): the payment page runs with no session.
  serve(app, getPaymentAmountEndpoint, PUBLIC, async ({ params }) => ({
    paymentAmount: await getPaymentAmount(db, params.studentId, config.coursePriceCents),
  }));

  // Spec 6: only a super_admin marks a student as paid.
  serve(app, markStudentPaid, staffRoles('super_admin'), async ({ params, auth }) => {
    const { studentId, paymentAt } = await markStudentPaidManually(db, clock, {
      studentId: params.studentId,
      staffId: auth.staffId,
    });
    return { studentId, payment_at: paymentAt.toISOString() };
  });
}
