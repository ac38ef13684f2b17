import type { FastifyInstance } from 'fastify';
import { answerIdentityCheck, getIdentityCheck, unlockStudentCourse } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve, staffRoles } from '../../plugins/endpoint.ts';
import { assertOwnRecord, getVisibleStudent } from '../../plugins/policies.ts';
import { unlockCourse } from './course-locks.ts';
import * as identity from './identity-checks.service.ts';

export function registerIdentityCheckRoutes(app: FastifyInstance, { db, clock }: AppDeps): void {
  serve(app, getIdentityCheck, PAID_STUDENT, async ({ params, auth }) => {
    assertOwnRecord(auth, params.id);
    return identity.getIdentityCheckState(db, clock, auth.studentId);
  });

  serve(app, answerIdentityCheck, PAID_STUDENT, async ({ params, body, auth }) => {
    assertOwnRecord(auth, params.id);
    return identity.answerIdentityCheck(db, clock, {
      studentId: auth.studentId,
      checkId: params.checkId,
      answer: body.answer,
    });
  });

  // Admins lift a course lock, within their court scope (404 outside it); audited with the lift.
  serve(app, unlockStudentCourse, staffRoles('super_admin', 'admin', 'court_admin'), async ({ params, auth }) => {
    await getVisibleStudent(db, auth, params.id);
    await unlockCourse(db, clock, { studentId: params.id, staffId: auth.staffId });
    return { unlocked: true as const };
  });
}
