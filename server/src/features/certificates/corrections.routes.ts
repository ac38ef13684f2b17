import type { FastifyInstance, FastifyRequest } from 'fastify';
import { correctionsApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { SIGNED_IN, serve, staffRoles, STUDENT } from '../../plugins/endpoint.ts';
import { assertMaySeeStudent, assertOwnRecord } from '../../plugins/policies.ts';
import { approveCorrection, listCorrections, rejectCorrection, requestCorrection } from './corrections.service.ts';

/**
 * A student asks for a few corrections an hour at most (one may wait at a time), counted per
 * signed-in student, not per address (a class behind one school network must not share a limit)
 * and not per id in the path (another student could use up someone else's). Counted once the
 * request has passed its schema (preHandler, not onRequest): a request refused as invalid input
 * (a date of birth mistyped) does not count, so a few typos do not lock a student out for an hour.
 */
const REQUEST_LIMIT = {
  max: 5,
  timeWindow: '1 hour',
  hook: 'preHandler' as const,
  keyGenerator: async (request: FastifyRequest) => {
    const auth = await request.getAuth();
    return auth?.kind === 'student' ? `correction:${String(auth.studentId)}` : `correction-ip:${request.ip}`;
  },
};

export function registerCorrectionRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  serve(
    app,
    correctionsApi.request,
    STUDENT,
    async ({ params, body, auth }) => {
      assertOwnRecord(auth, params.id);
      return requestCorrection(db, clock, { studentId: auth.studentId, ...body });
    },
    { rateLimit: REQUEST_LIMIT },
  );

  // The student's own requests, or staff whose court scope covers the student.
  serve(app, correctionsApi.own, SIGNED_IN, async ({ params, auth }) => {
    await assertMaySeeStudent(db, auth, params.id);
    return listCorrections(db, { studentId: params.id, courtId: null });
  });

  serve(app, correctionsApi.list, staffRoles(...correctionsApi.list.staffRoles), async ({ query, auth }) =>
    listCorrections(db, { ...query, courtId: auth.courtId }),
  );
  serve(app, correctionsApi.approve, staffRoles(...correctionsApi.approve.staffRoles), async ({ params, auth }) =>
    approveCorrection(db, { clock, config }, { id: params.id, staffId: auth.staffId, courtId: auth.courtId }),
  );
  serve(app, correctionsApi.reject, staffRoles(...correctionsApi.reject.staffRoles), async ({ params, body, auth }) =>
    rejectCorrection(db, clock, { id: params.id, staffId: auth.staffId, courtId: auth.courtId, note: body.note }),
  );
}
