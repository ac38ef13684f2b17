import type { FastifyInstance } from 'fastify';
import { identityChecksApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve, staffRoles } from '../../plugins/endpoint.ts';
import { assertMaySeeStudent, assertOwnRecord } from '../../plugins/policies.ts';
import { unlockCourse } from './course-locks.ts';
import { answerIdentityCheck, getIdentityCheckState } from './identity-checks.service.ts';

export function registerIdentityCheckRoutes(app: FastifyInstance, { db, clock }: AppDeps): void {
  serve(app, identityChecksApi.get, PAID_STUDENT, async ({ params, auth }) => {
    assertOwnRecord(auth, params.id);
    return getIdentityCheckState(db, clock, auth.studentId);
  });

  serve(app, identityChecksApi.answer, PAID_STUDENT, async ({ params, body, auth }) => {
    assertOwnRecord(auth, params.id);
    return answerIdentityCheck(db, clock, {
      studentId: auth.studentId,
      checkId: params.checkId,
      answer: body.answer,
    });
  });

  // Admins lift a course lock, within their court scope (404 outside it); audited with the lift.
  serve(app, identityChecksApi.unlock, staffRoles('super_admin', 'admin', 'court_admin'), async ({ params, auth }) => {
    await assertMaySeeStudent(db, auth, params.id);
    await unlockCourse(db, clock, { studentId: params.id, staffId: auth.staffId });
    return { unlocked: true as const };
  });
}
