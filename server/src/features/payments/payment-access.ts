import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { createToken, hashToken } from '../../platform/tokens.ts';
import { notFound } from '../../plugins/errors.ts';

/**
 * Decision 048: the card form of an enrolment (its PaymentIntent's client secret) goes only to a
 * browser that proved it is the student's: the one that registered, or one where the student
 * signed in (the pay page then signs the session out, spec 2, so the sign-in hands it this cookie
 * too). Student ids are sequential: anyone else could otherwise confirm, or block, another
 * student's payment. The token carries its own expiry; its hash, expiry included, is kept on the
 * enrolment, so the latest one issued is the one that works.
 */
export const PAYMENT_COOKIE = 'ts_payment';
export const PAYMENT_COOKIE_PATH = '/api/public/payment';
const PAYMENT_TOKEN_HOURS = 24;

/** A new token for the card form of this enrolment, good for a day; its hash is stored and the cookie set. */
export async function grantPaymentAccess(
  db: Db,
  clock: Clock,
  reply: FastifyReply,
  input: { studentId: number; secureCookies: boolean },
): Promise<void> {
  const token = newPaymentToken(clock);
  await db
    .update(students)
    .set({ paymentTokenHash: hashToken(token) })
    .where(eq(students.id, input.studentId));
  setPaymentCookie(reply, token, input);
}

/** `<expiry in ms>.<random>`: the expiry is read back from the cookie and covered by the stored hash. */
export function newPaymentToken(clock: Clock): string {
  return `${String(clock.now().getTime() + PAYMENT_TOKEN_HOURS * 3600_000)}.${createToken()}`;
}

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
 * is neither the student signed in nor holding this enrolment's unexpired payment cookie.
 */
export async function assertMayPayFor(db: Db, clock: Clock, request: FastifyRequest, studentId: number): Promise<void> {
  const auth = await request.getAuth();
  if (auth?.kind === 'student' && auth.studentId === studentId) return;
  const token = request.cookies[PAYMENT_COOKIE];
  const expires = Number(token?.split('.', 1)[0]);
  if (token && Number.isSafeInteger(expires) && expires > clock.now().getTime()) {
    // A public call's first statement, prepared once (decision 034: it waits as a new call).
    const [holder] = await prepareOnce(db, 'find_payment_token_holder', (database) =>
      database
        .select({ id: students.id })
        .from(students)
        .where(
          and(
            eq(students.id, sql.placeholder('studentId')),
            eq(students.paymentTokenHash, sql.placeholder('tokenHash')),
          ),
        )
        .prepare('find_payment_token_holder'),
    ).execute({ studentId, tokenHash: hashToken(token) });
    if (holder) return;
  }
  throw notFound('No enrolment was found for this payment.');
}
