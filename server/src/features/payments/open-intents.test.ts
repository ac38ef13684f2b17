import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { courts, payments, students, testProviderIntents } from '../../db/schema.ts';
import { createTestPaymentProvider } from '../../platform/payments/test-provider.ts';
import { buildTestApp, sessionCookieFrom, type TestApp } from '../../testing/build-test-app.ts';
import { buildRegistration, createCourt, createStudent, paymentCookieFor } from '../../testing/factories.ts';
import { fulfilPayment } from './fulfil-payment.service.ts';
import { paymentContextOf } from './payment-context.ts';
import { paymentsOf } from '../../testing/payments.ts';
import { signedInStaff } from '../../testing/course.ts';

// Decision 042: an enrolment's open PaymentIntents are canceled when a new one is made, when it is
// marked paid by hand and when it is archived, so one course is charged once.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

interface IntentAnswer {
  clientSecret: string;
  paymentIntentId: string;
}

const requestIntent = async (studentId: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/public/payment/intent',
    payload: { studentId },
    headers: { cookie: await paymentCookieFor(t.db, studentId) },
  });

async function startPayment(studentId: number): Promise<IntentAnswer> {
  const response = await requestIntent(studentId);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<IntentAnswer>();
}

const confirmCard = (intent: IntentAnswer) =>
  t.app.inject({
    method: 'POST',
    url: `/api/test-provider/payment_intents/${intent.paymentIntentId}/confirm`,
    payload: { client_secret: intent.clientSecret, card_number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
  });

const markPaid = (paymentIntent: string) =>
  t.app.inject({ method: 'POST', url: '/api/public/payment/mark-paid', payload: { paymentIntent } });

async function providerStatus(id: string): Promise<string | undefined> {
  const [row] = await t.db.select().from(testProviderIntents).where(eq(testProviderIntents.id, id));
  return row?.status;
}

/** The test provider's customer pays without the school hearing of it (a webhook still on its way). */
async function succeedUnheard(id: string): Promise<void> {
  await t.db.update(testProviderIntents).set({ status: 'succeeded' }).where(eq(testProviderIntents.id, id));
}

async function studentRow(id: number) {
  const [row] = await t.db.select().from(students).where(eq(students.id, id));
  if (!row) throw new Error(`no student ${String(id)}`);
  return row;
}

const CANCELED_REFUSAL = {
  error: {
    code: 'PAYMENT_INTENT_CANCELED',
    message: expect.stringContaining('it has a status of canceled') as string,
    type: 'invalid_request_error',
    provider_code: 'payment_intent_unexpected_state',
  },
};

describe('open PaymentIntents are canceled, so a course is charged once (decision 042)', () => {
  /** A super_admin marks the student paid by hand, through the API (spec 6). */
  async function markPaidByHand(studentId: number) {
    const admin = await signedInStaff(t, 'super_admin');
    return admin.post(`/api/admin/markPaid/${String(studentId)}`, {});
  }
  it('charges once when the court’s price changes while a pay tab is open: the old intent is canceled and refused, the new one pays', async () => {
    const court = await createCourt(t.db, { priceCents: 2995 });
    const student = await createStudent(t.db, { courtId: court.id });
    const oldTab = await startPayment(student.id);
    await t.db.update(courts).set({ priceCents: 3995 }).where(eq(courts.id, court.id));

    const newTab = await startPayment(student.id);

    expect(newTab.paymentIntentId).not.toBe(oldTab.paymentIntentId);
    expect(await providerStatus(oldTab.paymentIntentId)).toBe('canceled');
    const refused = await confirmCard(oldTab);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject(CANCELED_REFUSAL);
    expect((await confirmCard(newTab)).statusCode).toBe(200);
    expect((await paymentsOf(t.db, student.id)).map((row) => [row.providerPaymentId, row.amountCents])).toEqual([
      [newTab.paymentIntentId, 3995],
    ]);
  });

  it('cancels the open intent when a super_admin marks the student paid by hand: the pay tab is refused, one payment row', async () => {
    const student = await createStudent(t.db);
    const tab = await startPayment(student.id);
    const marked = await markPaidByHand(student.id);
    expect(marked.statusCode).toBe(200);

    expect(await providerStatus(tab.paymentIntentId)).toBe('canceled');
    expect((await confirmCard(tab)).json()).toMatchObject(CANCELED_REFUSAL);
    expect((await paymentsOf(t.db, student.id)).map((row) => row.method)).toEqual(['manual']);
  });

  it('records, instead of a manual payment, a card payment that succeeded just before the super_admin marked the student paid', async () => {
    const student = await createStudent(t.db);
    const tab = await startPayment(student.id);
    await succeedUnheard(tab.paymentIntentId);
    const marked = await markPaidByHand(student.id);

    expect(marked.statusCode).toBe(200);
    expect((await paymentsOf(t.db, student.id)).map((row) => [row.method, row.providerPaymentId])).toEqual([
      ['card', tab.paymentIntentId],
    ]);
  });

  it('cancels the open intent when the enrolment is archived by a duplicate registration’s reset, so the old tab cannot pay the archived row', async () => {
    const student = await createStudent(t.db);
    const tab = await startPayment(student.id);
    const duplicate = await t.app.inject({
      method: 'POST',
      url: '/api/register/student',
      payload: buildRegistration({ last_name: student.lastName, dl_number: student.dlNumber, dob: '07/04/1988' }),
      remoteAddress: '10.42.0.1',
    });
    const { resetToken } = duplicate.json<{ error: { resetToken: string } }>().error;
    const reset = await t.app.inject({
      method: 'PUT',
      url: `/api/students/resetcourse/${String(student.id)}`,
      payload: { resetToken },
    });
    expect(reset.statusCode, reset.body).toBe(200);

    expect(await providerStatus(tab.paymentIntentId)).toBe('canceled');
    expect((await confirmCard(tab)).json()).toMatchObject(CANCELED_REFUSAL);
    expect(await paymentsOf(t.db, student.id)).toEqual([]);
    expect((await studentRow(student.id)).paymentAt).toBeNull();
  });

  it('cancels the open intent when the enrolment is archived for a retake', async () => {
    const student = await createStudent(t.db, { completedAt: t.clock.now() });
    const tab = await startPayment(student.id);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login/student',
      payload: { last_name: student.lastName, dl_number: student.dlNumber },
    });
    const retake = await t.app.inject({
      method: 'DELETE',
      url: `/api/students/${String(student.id)}`,
      headers: { cookie: sessionCookieFrom(login) },
    });
    expect(retake.statusCode, retake.body).toBe(204);

    expect(await providerStatus(tab.paymentIntentId)).toBe('canceled');
    expect((await confirmCard(tab)).statusCode).toBe(400);
    expect(await paymentsOf(t.db, student.id)).toEqual([]);
  });

  it('records an older intent that already succeeded and makes no new one when the page asks again at a new price', async () => {
    const court = await createCourt(t.db, { priceCents: 2995 });
    const student = await createStudent(t.db, { courtId: court.id });
    const tab = await startPayment(student.id);
    await succeedUnheard(tab.paymentIntentId);
    await t.db.update(courts).set({ priceCents: 3995 }).where(eq(courts.id, court.id));
    const [before] = await t.db
      .select({ n: t.db.$count(testProviderIntents) })
      .from(testProviderIntents)
      .limit(1);

    const again = await requestIntent(student.id);

    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: { code: string } }>().error.code).toBe('ALREADY_PAID');
    const [after] = await t.db
      .select({ n: t.db.$count(testProviderIntents) })
      .from(testProviderIntents)
      .limit(1);
    expect(after?.n).toBe(before?.n);
    expect((await paymentsOf(t.db, student.id)).map((row) => [row.providerPaymentId, row.amountCents])).toEqual([
      [tab.paymentIntentId, 2995],
    ]);
    expect((await studentRow(student.id)).paymentAt).not.toBeNull();
  });

  it('records a payment that arrives for an archived enrolment, leaves it unpaid, answers ALREADY_PAID and logs it for a refund', async () => {
    const student = await createStudent(t.db);
    const tab = await startPayment(student.id);
    // The provider could not be reached when the enrolment was archived: the intent stayed open.
    await t.db.update(students).set({ archivedAt: t.clock.now() }).where(eq(students.id, student.id));
    await succeedUnheard(tab.paymentIntentId);

    const answer = await markPaid(tab.paymentIntentId);

    expect(answer.statusCode).toBe(409);
    expect(answer.json<{ error: { code: string } }>().error.code).toBe('ALREADY_PAID');
    expect((await paymentsOf(t.db, student.id)).map((row) => row.providerPaymentId)).toEqual([tab.paymentIntentId]);
    expect((await studentRow(student.id)).paymentAt).toBeNull();
    expect((await markPaid(tab.paymentIntentId)).statusCode).toBe(409);
  });

  it('writes one warn line naming the payment when money arrives for an enrolment already paid by hand', async () => {
    const student = await createStudent(t.db);
    const tab = await startPayment(student.id);
    await t.db.insert(payments).values({ studentId: student.id, method: 'manual', amountCents: 2995, currency: 'usd' });
    await t.db.update(students).set({ paymentAt: t.clock.now() }).where(eq(students.id, student.id));
    await succeedUnheard(tab.paymentIntentId);
    const provider = createTestPaymentProvider(t.db, t.clock);
    const intent = await provider.retrieveIntent(tab.paymentIntentId);
    if (!intent) throw new Error('no intent');
    const log = { warn: vi.fn() };
    const context = paymentContextOf({ clock: t.clock, payments: provider, config: t.config }, log);

    const first = await fulfilPayment(t.db, context, intent);
    const second = await fulfilPayment(t.db, context, intent);

    expect([first.surplus, second.surplus]).toEqual([true, true]);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ paymentIntentId: tab.paymentIntentId, studentId: student.id }),
      expect.stringContaining('refund'),
    );
    expect((await paymentsOf(t.db, student.id)).map((row) => row.method).sort()).toEqual(['card', 'manual']);
  });
});
