import type { FastifyInstance } from 'fastify';
import { registrationApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PUBLIC, serve, STUDENT } from '../../plugins/endpoint.ts';
import { clearSessionCookie } from '../../plugins/session.ts';
import { assertOwnRecord } from '../../plugins/policies.ts';
import { requestLanguage } from '../../plugins/language.ts';
import {
  findManualEnrolmentStaffId,
  registerStudent,
  resetStudentCourse,
  retakeCourse,
} from './registration.service.ts';
import { setPaymentCookie } from '../payments/payment-access.ts';
import { paymentContextOf } from '../payments/payment-context.ts';

export function registerRegistrationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock, config } = deps;
  // Public: anyone may register. `backdoor` (manual enrolment, paid) counts only for a staff session
  // allowed to enrol; other staff are refused, and for anyone else it is an ordinary registration.
  serve(app, registrationApi.register, PUBLIC, async ({ body, request, reply }) => {
    const enrolledBy = body.backdoor === true ? findManualEnrolmentStaffId(await request.getAuth()) : null;
    const { studentId, paymentToken } = await registerStudent(
      db,
      {
        clock,
        enrolledByStaffId: enrolledBy,
        schoolTimeZone: config.schoolTimeZone,
        ip: request.ip,
        defaultPriceCents: config.coursePriceCents,
        language: requestLanguage(request),
      },
      body,
    );
    if (paymentToken) setPaymentCookie(reply, paymentToken, config);
    return { studentId };
  });

  // Public, but proven by the reset token the duplicate registration handed out (decision 004).
  serve(app, registrationApi.resetCourse, PUBLIC, async ({ params, body, request }) => {
    const { archivedStudentId } = await resetStudentCourse(db, paymentContextOf(deps, request.log), {
      studentId: params.studentId,
      resetToken: body?.resetToken,
    });
    return { status: 'RESET' as const, archivedStudentId };
  });

  // Spec 4: the retake's delete request; the enrolment is archived, never deleted.
  serve(app, registrationApi.retake, STUDENT, async ({ params, auth, reply, request }) => {
    assertOwnRecord(auth, params.id);
    await retakeCourse(db, paymentContextOf(deps, request.log), auth.studentId);
    clearSessionCookie(reply);
    return undefined;
  });
}
