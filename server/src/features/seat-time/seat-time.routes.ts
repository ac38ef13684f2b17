import type { FastifyInstance } from 'fastify';
import { getSeatTime, recordHeartbeat } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve } from '../../plugins/endpoint.ts';
import { assertOwnRecord } from '../../plugins/policies.ts';
import { hasIdentityHold } from '../identity-checks/identity-checks.service.ts';
import { getStudentProfile } from '../rules/rules.service.ts';
import * as seatTime from './seat-time.service.ts';

export function registerSeatTimeRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  serve(app, recordHeartbeat, PAID_STUDENT, async ({ body, auth }) => {
    assertOwnRecord(auth, body.studentId);
    // One read of the student's pinned profile serves the seat time and the identity question.
    const profile = await getStudentProfile(db, auth.studentId);
    const status = await seatTime.recordHeartbeat(
      db,
      { clock, config },
      { studentId: auth.studentId, profile, moduleId: body.moduleId },
    );
    return { ...status, identityCheckDue: await hasIdentityHold(db, clock, auth.studentId, profile) };
  });

  serve(app, getSeatTime, PAID_STUDENT, async ({ params, query, auth }) => {
    assertOwnRecord(auth, params.id);
    const profile = await getStudentProfile(db, auth.studentId);
    const status = await seatTime.getSeatTimeStatus(
      db,
      { clock, config },
      { studentId: auth.studentId, profile, moduleId: query.moduleId, chapterId: query.chapterId },
    );
    return { ...status, identityCheckDue: await hasIdentityHold(db, clock, auth.studentId, profile) };
  });
}
