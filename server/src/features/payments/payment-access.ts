import { and, eq, gt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashToken } from '../../platform/tokens.ts';
import { notFound } from '../../plugins/errors.ts';

/**
 * Decision 048: the card form of an enrolment (its PaymentIntent's client secret) goes only to the
 * browser that registered it, which holds this HttpOnly cookie for a day, or to the student signed
 * in. Student ids are sequential: anyone else could otherwise confirm, or block, another
 * student's payment.
 */
export const PAYMENT_COOKIE = 'ts_payment';
export const PAYMENT_COOKIE_PATH = '/api/public/payment';
const PAYMENT_TOKEN_HOURS = 24;

export function setPaymentCookie(reply: FastifyReply, token: string, config: { secureCookies: boolean }): void {
  reply.setCookie(PAYMENT_COOKIE, token, {
    path: PAYMENT_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: config.secureCookies,
    maxAge: PAYMENT_TOKEN_HOURS * 3600,
  });
}

/**
 * Refuses (404, as for an unknown id: nothing tells a stranger the enrolment exists) a caller who
 * is neither the student signed in nor the browser that registered the enrolment within a day.
 */
export async function assertMayPayFor(db: Db, clock: Clock, request: FastifyRequest, studentId: number): Promise<void> {
  const auth = await request.getAuth();
  if (auth?.kind === 'student' && auth.studentId === studentId) return;
  const token = request.cookies[PAYMENT_COOKIE];
  if (token) {
    const since = new Date(clock.now().getTime() - PAYMENT_TOKEN_HOURS * 3600_000);
    const [holder] = await db
      .select({ id: students.id })
      .from(students)
      .where(
        and(eq(students.id, studentId), eq(students.paymentTokenHash, hashToken(token)), gt(students.createdAt, since)),
      );
    if (holder) return;
  }
  throw notFound('No enrolment was found for this payment.');
}
