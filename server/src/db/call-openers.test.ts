import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sessionCookieFrom, type TestApp } from '../testing/build-test-app.ts';
import { buildRegistration, getCourtId } from '../testing/factories.ts';
import { uniqueAddress } from '../testing/sign-in.ts';
import { CallOrderedQueue } from './pool-queue.ts';

/**
 * Decision 034: on PostgreSQL a call waits for a connection once, at its first statement, which
 * goes behind the statements of calls under way. A call whose first statement is not marked
 * (prepareOnce's opensCall) jumps that line, and the wait it skips falls on the calls after it:
 * the card's confirmation once did, and the payment page's next call then waited 1.6 s in the
 * 1,000-student journey.
 */
describe("the first statement of each call of a student's journey opens the call", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('on PostgreSQL, from the health check and registration to signed-in reads, each first statement waits as a new call; PGlite has no pool to wait in', async () => {
    // drizzle's handle on its client (not in the Db type, which is the same for both engines).
    const pool: unknown = Reflect.get(t.db, '$client');
    if (!(pool instanceof pg.Pool)) {
      expect(pool).toBeInstanceOf(PGlite);
      return;
    }
    const queue: unknown = Reflect.get(pool, '_pendingQueue');
    if (!(queue instanceof CallOrderedQueue)) throw new Error('the pool has no call-ordered queue');
    // Every statement the pool is asked for, and whether it was sent as a new call's.
    const sent: boolean[] = [];
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    Object.assign(pool, {
      query: (...args: unknown[]) => {
        sent.push(queue.nextIsNewCall);
        return query(...args);
      },
    });
    const firstStatementOf = async (
      label: string,
      options: { method?: 'GET' | 'POST'; url: string; payload?: object; cookie?: string },
    ) => {
      sent.length = 0;
      const response = await t.app.inject({
        method: options.method ?? (options.payload ? 'POST' : 'GET'),
        url: options.url,
        ...(options.payload ? { payload: options.payload } : {}),
        ...(options.cookie ? { headers: { cookie: options.cookie } } : {}),
        remoteAddress: uniqueAddress(),
      });
      expect(response.statusCode, `${label}: ${response.body}`).toBeLessThan(300);
      return { label, newCall: sent[0], response };
    };

    const registration = buildRegistration({ court: await getCourtId(t.db) });
    const calls = [
      await firstStatementOf('health', { url: '/api/health' }),
      await firstStatementOf('courts', { url: '/api/public/courts' }),
    ];
    const registered = await firstStatementOf('registration', { url: '/api/register/student', payload: registration });
    const { studentId } = registered.response.json<{ studentId: number }>();
    const intentCall = await firstStatementOf('payment intent', {
      url: '/api/public/payment/intent',
      payload: { studentId },
      // The cookie the registration's answer set for the card form (decision 048).
      cookie: registered.response.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; '),
    });
    const intent = intentCall.response.json<{ paymentIntentId: string; clientSecret: string }>();
    const confirmed = await firstStatementOf("the card's confirmation", {
      url: `/api/test-provider/payment_intents/${intent.paymentIntentId}/confirm`,
      payload: { client_secret: intent.clientSecret, card_number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
    });
    const returned = await firstStatementOf('the return', {
      url: '/api/public/payment/mark-paid',
      payload: { paymentIntent: intent.paymentIntentId },
    });
    const signedIn = await firstStatementOf('sign-in', {
      url: '/api/login/student',
      payload: { last_name: registration.last_name, dl_number: registration.dl_number },
    });
    const cookie = sessionCookieFrom(signedIn.response);
    calls.push(registered, intentCall, confirmed, returned, signedIn);
    calls.push(
      await firstStatementOf('/api/me', { url: '/api/me', cookie }),
      await firstStatementOf('chapters', { url: '/api/content/chapters', cookie }),
      await firstStatementOf('completed chapters', {
        url: `/api/students/${String(studentId)}/completedChapters`,
        cookie,
      }),
    );

    expect(calls.map(({ label, newCall }) => ({ label, newCall }))).toEqual(
      calls.map(({ label }) => ({ label, newCall: true })),
    );
  });
});
