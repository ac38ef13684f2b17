import type { FastifyInstance } from 'fastify';
import { identityChecksApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PAID_STUDENT, serve, staffRoles } from '../../plugins/endpoint.ts';
import { assertMaySeeStudent, assertOwnRecord } from '../../plugins/policies.ts';
import { unlockCourse } from './course-locks.ts';
import { answerIdentityCheck, getIdentityCheckState } from './identity-checks.service.ts';
import { describePersonalQuestions, resetPersonalQuestions, setPersonalQuestions } from './personal-questions.ts';
import { getStudentProfile } from '../rules/rules.service.ts';

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

  // Decision 050: the student's personal validation questions.
  serve(app, identityChecksApi.personalQuestions, PAID_STUDENT, async ({ params, auth }) => {
    assertOwnRecord(auth, params.id);
    const { rules } = await getStudentProfile(db, auth.studentId);
    return describePersonalQuestions(db, auth.studentId, rules);
  });

  serve(app, identityChecksApi.setPersonalQuestions, PAID_STUDENT, async ({ params, body, auth }) => {
    assertOwnRecord(auth, params.id);
    const { rules } = await getStudentProfile(db, auth.studentId);
    await setPersonalQuestions(db, clock, auth.studentId, body);
    return describePersonalQuestions(db, auth.studentId, rules);
  });

  // Admins, within their court scope (404 outside it), clear them with a reason; audited.
  serve(
    app,
    identityChecksApi.resetPersonalQuestions,
    staffRoles(...identityChecksApi.resetPersonalQuestions.staffRoles),
    async ({ params, body, auth }) => {
      await assertMaySeeStudent(db, auth, params.id);
      await resetPersonalQuestions(db, clock, { studentId: params.id, staffId: auth.staffId, reason: body.reason });
      return { reset: true as const };
    },
  );

  // Admins lift a course lock, within their court scope (404 outside it); audited with the lift.
  serve(app, identityChecksApi.unlock, staffRoles(...identityChecksApi.unlock.staffRoles), async ({ params, auth }) => {
    await assertMaySeeStudent(db, auth, params.id);
    await unlockCourse(db, clock, { studentId: params.id, staffId: auth.staffId });
    return { unlocked: true as const };
  });
}
