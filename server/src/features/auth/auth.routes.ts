import type { FastifyInstance } from 'fastify';
import { authApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PUBLIC, serve, STUDENT } from '../../plugins/endpoint.ts';
import { unauthenticated } from '../../plugins/errors.ts';
import { clearSessionCookie, endSession, startSession } from '../../plugins/session.ts';
import { authenticateStaff, authenticateStudent, getSessionUser } from './auth.service.ts';
import { updateStudentLanguage } from './student-language.service.ts';
import { grantPaymentAccess } from '../payments/payment-access.ts';

export function registerAuthRoutes(app: FastifyInstance, { db, clock, config }: AppDeps): void {
  serve(app, authApi.loginStudent, PUBLIC, async ({ body, request, reply }) => {
    const user = await authenticateStudent(db, clock, {
      lastName: body.last_name,
      dlNumber: body.dl_number,
      ip: request.ip,
    });
    await startSession(db, clock, config, reply, { studentId: user.id });
    // An unpaid student goes on to the pay page, which signs the session out (spec 2): this
    // browser keeps the right to the card form (decision 048).
    if (!user.payment_at) {
      await grantPaymentAccess(db, clock, reply, { studentId: user.id, secureCookies: config.secureCookies });
    }
    return { status: 'SUCCESS' as const, user };
  });

  serve(app, authApi.loginAdmin, PUBLIC, async ({ body, request, reply }) => {
    const user = await authenticateStaff(db, clock, { ...body, ip: request.ip });
    await startSession(db, clock, config, reply, { staffId: user.id });
    return { status: 'SUCCESS' as const, user };
  });

  // Signing out is open to anyone: without a session it only clears the cookie.
  serve(app, authApi.logout, PUBLIC, async ({ request, reply }) => {
    const auth = await request.getAuth();
    if (auth) await endSession(db, clock, auth.tokenHash);
    clearSessionCookie(reply);
    return undefined;
  });

  serve(app, authApi.me, PUBLIC, async ({ request }) => {
    const auth = await request.getAuth();
    if (!auth) throw unauthenticated();
    return { user: getSessionUser(auth) };
  });

  // The web's language switch, for a signed-in student: their emails follow it (decision 056).
  serve(app, authApi.setMyLanguage, STUDENT, async ({ body, auth }) => {
    await updateStudentLanguage(db, auth.studentId, body.language);
    return undefined;
  });
}
