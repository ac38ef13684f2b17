import type { FastifyInstance } from 'fastify';
import { rulesApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PUBLIC, serve, SIGNED_IN, staffRoles } from '../../plugins/endpoint.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { assertMaySeeStudent } from '../../plugins/policies.ts';
import { getCourtRules, getStudentRules } from './student-rules.service.ts';
import { grantRulesException } from './exceptions.service.ts';

export function registerRulesRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  // The student's own rules, or staff whose court scope covers the student (404 otherwise).
  serve(app, rulesApi.studentRules, SIGNED_IN, async ({ params, auth, request }) => {
    await assertMaySeeStudent(db, auth, params.id);
    return getStudentRules(db, { clock, config }, { studentId: params.id, language: requestLanguage(request) });
  });

  // Anyone may read a court's rules: a driver chooses a court on the registration form.
  serve(app, rulesApi.courtRules, PUBLIC, async ({ params, request }) =>
    getCourtRules(db, { courtId: params.id, language: requestLanguage(request) }),
  );

  // Admins (never clerks) make exceptions, within their court scope (404 outside it),
  // as they lift a course lock.
  serve(
    app,
    rulesApi.grantException,
    staffRoles(...rulesApi.grantException.staffRoles),
    async ({ params, body, auth }) => {
      await assertMaySeeStudent(db, auth, params.id);
      return grantRulesException(db, clock, { staffId: auth.staffId, studentId: params.id, grant: body });
    },
  );
}
