import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentIntents, students } from '../../db/schema.ts';
import { TEST_CARDS } from '../../platform/payments/test-provider.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { buildRegistration, createStudent, markStudentPaid } from '../../testing/factories.ts';
import { signInStudent, uniqueAddress } from '../../testing/sign-in.ts';
import { PAYMENT_COOKIE } from './payment-access.ts';

const NO_ENROLMENT = {
  error: {
    code: 'NOT_FOUND',
    message: 'No enrolment was found for this payment.',
    requestId: expect.any(String) as string,
  },
};

interface IntentAnswer {
  clientSecret: string;
  paymentIntentId: string;
}

/**
 * Decision 048: an enrolment's card form (the PaymentIntent's client secret) goes only to the
 * browser that registered it (an HttpOnly cookie, for a day) or to the student signed in; a
 * payment still processing does not stop the student paying.
 */
describe('who may have a card form', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function register(): Promise<{ studentId: number; cookie: string }> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/register/student',
      payload: buildRegistration(),
      remoteAddress: uniqueAddress(),
    });
    expect(response.statusCode, response.body).toBe(201);
    const set = response.cookies.find((cookie) => cookie.name === PAYMENT_COOKIE);
    if (!set) throw new Error('no payment cookie');
    expect(set).toMatchObject({ httpOnly: true, path: '/api/public/payment', maxAge: 86_400 });
    return { studentId: response.json<{ studentId: number }>().studentId, cookie: `${PAYMENT_COOKIE}=${set.value}` };
  }

  const requestIntent = (studentId: number, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/public/payment/intent',
      payload: { studentId },
      ...(cookie ? { headers: { cookie } } : {}),
    });

  const intentsOf = (studentId: number) =>
    t.db.select().from(paymentIntents).where(eq(paymentIntents.studentId, studentId));

  const confirm = (intent: IntentAnswer, card: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/test-provider/payment_intents/${intent.paymentIntentId}/confirm`,
      payload: { client_secret: intent.clientSecret, card_number: card, expiry: '12/34', cvc: '123' },
    });

  it('hands the browser that registered the card form', async () => {
    const { studentId, cookie } = await register();
    const response = await requestIntent(studentId, cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<IntentAnswer>().clientSecret).toMatch(/_secret_/);
  });

  it('answers anyone else as for an unknown id, and makes no intent', async () => {
    const { studentId } = await register();
    const stranger = await requestIntent(studentId);
    const unknown = await requestIntent(99_999_999);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual(NO_ENROLMENT);
    expect(unknown.json()).toEqual(NO_ENROLMENT);
    expect(await intentsOf(studentId)).toEqual([]);
  });

  it("refuses another enrolment's cookie", async () => {
    const first = await register();
    const second = await register();
    expect((await requestIntent(first.studentId, second.cookie)).statusCode).toBe(404);
  });

  it('refuses the cookie after a day', async () => {
    const { studentId, cookie } = await register();
    t.clock.advance(24 * 3600_000 + 1000);
    expect((await requestIntent(studentId, cookie)).statusCode).toBe(404);
  });

  it('hands the signed-in student the card form, from any browser', async () => {
    const student = await createStudent(t.db);
    const session = await signInStudent(t.app, student);
    const response = await requestIntent(student.id, session);
    expect(response.statusCode, response.body).toBe(200);
    const other = await createStudent(t.db);
    expect((await requestIntent(other.id, session)).statusCode).toBe(404);
  });

  it('hands the card form to the browser where an unpaid student signed in, after the pay page signed it out', async () => {
    const student = await createStudent(t.db);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/login/student',
      payload: { last_name: student.lastName, dl_number: student.dlNumber },
      remoteAddress: uniqueAddress(),
    });
    const set = signedIn.cookies.find((cookie) => cookie.name === PAYMENT_COOKIE);
    expect(set).toMatchObject({ httpOnly: true, path: '/api/public/payment' });
    // The pay page signs the session out (spec 2): only the payment cookie is left.
    const response = await requestIntent(student.id, `${PAYMENT_COOKIE}=${set!.value}`);
    expect(response.statusCode, response.body).toBe(200);
  });

  it('sets no payment cookie at the sign-in of a paid student', async () => {
    const student = await createStudent(t.db);
    await markStudentPaid(t.db, student.id);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/login/student',
      payload: { last_name: student.lastName, dl_number: student.dlNumber },
      remoteAddress: uniqueAddress(),
    });
    expect(signedIn.cookies.map((cookie) => cookie.name)).not.toContain(PAYMENT_COOKIE);
  });

  it('lets the student pay again while an earlier payment is still processing', async () => {
    const { studentId, cookie } = await register();
    const first = (await requestIntent(studentId, cookie)).json<IntentAnswer>();
    expect((await confirm(first, TEST_CARDS.processing)).statusCode).toBe(200);

    const again = await requestIntent(studentId, cookie);
    expect(again.statusCode, again.body).toBe(200);
    const second = again.json<IntentAnswer>();
    expect(second.paymentIntentId).not.toBe(first.paymentIntentId);
    expect((await confirm(second, TEST_CARDS.succeeds)).statusCode).toBe(200);
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/public/payment/mark-paid',
      payload: { paymentIntent: second.paymentIntentId },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [row] = await t.db.select().from(students).where(eq(students.id, studentId));
    expect(row?.paymentAt).not.toBeNull();
  });

  it('still answers a paid enrolment ALREADY_PAID to its own browser', async () => {
    const { studentId, cookie } = await register();
    await markStudentPaid(t.db, studentId);
    expect((await requestIntent(studentId, cookie)).json()).toMatchObject({ error: { code: 'ALREADY_PAID' } });
  });
});
