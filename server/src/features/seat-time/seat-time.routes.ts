import type { FastifyInstance } from 'fastify';
import { seatTimeApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve } from '../../plugins/endpoint.ts';
import { assertOwnRecord } from '../../plugins/policies.ts';
import { getStudentSeatTime, recordStudentHeartbeat } from './heartbeat.service.ts';

export function registerSeatTimeRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  const context = { clock, config };

  serve(app, seatTimeApi.heartbeat, PAID_STUDENT, async ({ body, auth }) => {
    assertOwnRecord(auth, body.studentId);
    return recordStudentHeartbeat(db, context, {
      studentId: auth.studentId,
      profile: auth.profile,
      moduleId: body.moduleId,
    });
  });

  serve(app, seatTimeApi.get, PAID_STUDENT, async ({ params, query, auth }) => {
    assertOwnRecord(auth, params.id);
    return getStudentSeatTime(db, context, {
      studentId: auth.studentId,
      profile: auth.profile,
      moduleId: query.moduleId,
      chapterId: query.chapterId,
    });
  });
}
