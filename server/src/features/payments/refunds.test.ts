import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { completedStudent, onlyCertificateOf, recordCourseCompletion } from '../../testing/certificates.ts';
import { createCourt, getCourtId } from '../../testing/factories.ts';
import { signedInStaff } from '../../testing/course.ts';
import {
  deliverWebhook,
  markPaid,
  paidByCard,
  queuedEmails,
  refundStudent,
  refundsOf,
  signInAsStudent,
  stripeRig,
} from '../../testing/payments.ts';
import { signStripePayload } from '../../testing/stripe-api-server.ts';

/** Decision 058: refunds through the payment provider, their receipts, and what a full refund closes. */

const PRICE = 2995;
const reason = 'Student asked within the refund window';

async function countRows(t: TestApp, studentId: number) {
  return {
    refunds: (await refundsOf(t.db, studentId)).length,
    audit: (
      await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'refund_payment'), eq(auditLog.entityId, studentId)))
    ).length,
  };
}

const studentRow = async (t: TestApp, id: number) => {
  const [row] = await t.db.select().from(students).where(eq(students.id, id));
  if (!row) throw new Error(`no student ${String(id)}`);
  return row;
};

describe('refunds through the test provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('who may refund (decision 011: the roles on the contract endpoint, court scope)', () => {
    it('lets a super_admin and an admin refund any student, and a court admin their court’s', async () => {
      const courtId = await getCourtId(t.db);
      for (const [role, court] of [
        ['super_admin', null],
        ['admin', null],
        ['admin', courtId],
      ] as const) {
        const student = await paidByCard(t, { courtId });
        const { cookie } = await signedInStaff(t, role, court);
        const response = await refundStudent(t, cookie, student.id, { amount_cents: 500, reason });
        expect(response.statusCode, `${role} of court ${String(court)}`).toBe(201);
        expect(response.json()).toEqual({ id: expect.any(Number) as number, amount_cents: 500, status: 'succeeded' });
      }
    });

    it('refuses clerks with 403, whether limited to a court or not, and nothing is refunded', async () => {
      const courtId = await getCourtId(t.db);
      const student = await paidByCard(t, { courtId });
      for (const court of [null, courtId]) {
        const { cookie } = await signedInStaff(t, 'clerk', court);
        const response = await refundStudent(t, cookie, student.id, { reason });
        expect(response.statusCode).toBe(403);
      }
      expect(await refundsOf(t.db, student.id)).toEqual([]);
    });

    it('answers a court admin asking about another court’s student with 404, and refunds nothing', async () => {
      const other = await createCourt(t.db);
      const student = await paidByCard(t, { courtId: other.id });
      const { cookie } = await signedInStaff(t, 'admin', await getCourtId(t.db));
      const response = await refundStudent(t, cookie, student.id, { reason });
      expect(response.statusCode).toBe(404);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
      expect(await refundsOf(t.db, student.id)).toEqual([]);
    });

    it('refuses a student and a caller who is not signed in', async () => {
      const student = await paidByCard(t);
      expect((await refundStudent(t, await signInAsStudent(t, student), student.id, { reason })).statusCode).toBe(403);
      const anonymous = await t.app.inject({
        method: 'POST',
        url: `/api/admin/students/${String(student.id)}/refunds`,
        payload: { reason },
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('asks for a reason (400) and refunds nothing without one', async () => {
      const student = await paidByCard(t);
      const { cookie } = await signedInStaff(t, 'super_admin');
      const response = await refundStudent(t, cookie, student.id, { reason: '  ' });
      expect(response.statusCode).toBe(400);
      expect(await refundsOf(t.db, student.id)).toEqual([]);
    });
  });

  describe('amounts', () => {
    it('refunds a part, then the whole remaining amount when none is given, and lists both on the student’s record', async () => {
      const student = await paidByCard(t);
      const { cookie, member } = await signedInStaff(t, 'super_admin');
      const memberName = `Staff Member`;

      expect((await refundStudent(t, cookie, student.id, { amount_cents: 995, reason })).statusCode).toBe(201);
      const rest = await refundStudent(t, cookie, student.id, { reason: 'The rest, as agreed' });

      expect(rest.statusCode).toBe(201);
      expect(rest.json<{ amount_cents: number }>().amount_cents).toBe(PRICE - 995);
      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/admin/students/${String(student.id)}`,
        headers: { cookie },
      });
      expect(
        detail.json<{ refunds: { amount_cents: number; reason: string; refunded_by: string; status: string }[] }>()
          .refunds,
      ).toEqual([
        expect.objectContaining({ amount_cents: 995, reason, status: 'succeeded' }),
        expect.objectContaining({ amount_cents: PRICE - 995, reason: 'The rest, as agreed', status: 'succeeded' }),
      ]);
      // createStaff names a member "Staff Member <n>", n from its username "staff<n>".
      expect(detail.json<{ refunds: { refunded_by: string }[] }>().refunds[0]?.refunded_by).toBe(
        `${memberName} ${member.username.replace('staff', '')}`,
      );
    });

    it('answers 409 for more than was paid less what was refunded, and nothing changes', async () => {
      const student = await paidByCard(t);
      const { cookie } = await signedInStaff(t, 'super_admin');
      expect((await refundStudent(t, cookie, student.id, { amount_cents: 2000, reason })).statusCode).toBe(201);
      const before = await countRows(t, student.id);

      const response = await refundStudent(t, cookie, student.id, {
        amount_cents: PRICE - 2000 + 1,
        reason: 'Too much',
      });

      expect(response.statusCode).toBe(409);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('REFUND_EXCEEDS_PAYMENT');
      expect(await countRows(t, student.id)).toEqual(before);
      expect((await studentRow(t, student.id)).archivedAt).toBeNull();
    });

    it('answers 409 for a student who paid nothing by card', async () => {
      const { id } = await completedStudent(t);
      const { cookie } = await signedInStaff(t, 'super_admin');
      const response = await refundStudent(t, cookie, id, { reason });
      expect(response.statusCode).toBe(409);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('REFUND_EXCEEDS_PAYMENT');
    });

    it('refunds a double click once (decision 040): both answered with the same refund', async () => {
      const student = await paidByCard(t);
      const { cookie } = await signedInStaff(t, 'admin');

      const [first, second] = await Promise.all([
        refundStudent(t, cookie, student.id, { amount_cents: 1000, reason }),
        refundStudent(t, cookie, student.id, { amount_cents: 1000, reason }),
      ]);

      expect([first?.statusCode, second?.statusCode]).toEqual([201, 201]);
      expect(first?.json<{ id: number }>().id).toBe(second?.json<{ id: number }>().id);
      expect(await refundsOf(t.db, student.id)).toHaveLength(1);
    });

    it('lets one of two refunds of the last remaining amount win; the other is 409', async () => {
      const student = await paidByCard(t);
      const one = await signedInStaff(t, 'super_admin');
      const two = await signedInStaff(t, 'admin');

      const answers = await Promise.all([
        refundStudent(t, one.cookie, student.id, { reason: 'First reason' }),
        refundStudent(t, two.cookie, student.id, { reason: 'Second reason' }),
      ]);

      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
      const recorded = await refundsOf(t.db, student.id);
      expect(recorded.map((refund) => refund.amountCents)).toEqual([PRICE]);
    });

    it('writes who refunded, how much and why to the audit log', async () => {
      const student = await paidByCard(t);
      const { cookie, member } = await signedInStaff(t, 'admin');
      await refundStudent(t, cookie, student.id, { amount_cents: 700, reason });

      const [entry] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'refund_payment'), eq(auditLog.entityId, student.id)));
      expect(entry?.staffId).toBe(member.id);
      expect(entry?.after).toEqual(
        expect.objectContaining({ amount_cents: 700, reason, payment_id: student.paymentId }),
      );
    });
  });

  describe('what a refund closes (decision 058)', () => {
    it('closes an unfinished course refunded in full: archived, its sessions ended, and sign-in says why', async () => {
      const student = await paidByCard(t);
      const session = await signInAsStudent(t, student);
      const { cookie } = await signedInStaff(t, 'super_admin');

      expect((await refundStudent(t, cookie, student.id, { reason })).statusCode).toBe(201);

      const row = await studentRow(t, student.id);
      expect(row.archivedAt).not.toBeNull();
      expect(row.archiveReason).toBe('refunded');
      const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: session } });
      expect(me.statusCode).toBe(401);
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/api/login/student',
        payload: { last_name: student.lastName, dl_number: student.dlNumber },
      });
      expect(signIn.statusCode).toBe(403);
      expect(signIn.json<{ error: { code: string } }>().error.code).toBe('COURSE_REFUNDED');
    });

    it('keeps an unfinished course open after a partial refund', async () => {
      const student = await paidByCard(t);
      const { cookie } = await signedInStaff(t, 'super_admin');
      await refundStudent(t, cookie, student.id, { amount_cents: 1000, reason });
      expect((await studentRow(t, student.id)).archivedAt).toBeNull();
    });

    it('answers a wrong last name with the usual INVALID_LOGIN, refunded course or not', async () => {
      const student = await paidByCard(t);
      const { cookie } = await signedInStaff(t, 'super_admin');
      await refundStudent(t, cookie, student.id, { reason });
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/api/login/student',
        payload: { last_name: 'Somebody', dl_number: student.dlNumber },
      });
      expect(signIn.statusCode).toBe(401);
      expect(signIn.json<{ error: { code: string } }>().error.code).toBe('INVALID_LOGIN');
    });

    it('leaves a finished course and its certificate valid after a full refund', async () => {
      const student = await paidByCard(t);
      await recordCourseCompletion(t, student.id);
      const certificate = await onlyCertificateOf(t.db, student.id);
      const { cookie } = await signedInStaff(t, 'super_admin');

      expect((await refundStudent(t, cookie, student.id, { reason })).statusCode).toBe(201);

      expect((await studentRow(t, student.id)).archivedAt).toBeNull();
      const verified = await t.app.inject({ method: 'GET', url: `/api/public/verify/${certificate.number}` });
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toEqual(
        expect.objectContaining({ valid: true, number: certificate.number, superseded_by: null }),
      );
    });
  });

  describe('receipts (decision 058)', () => {
    it('queues one receipt per card payment, in the student’s language, with the amount, court and the card’s last four', async () => {
      const court = await createCourt(t.db);
      const student = await paidByCard(t, { courtId: court.id });
      // The browser's return confirms the same payment again (spec 4): still one receipt.
      expect((await markPaid(t, student.intentId)).statusCode).toBe(200);
      const receipts = await queuedEmails(t.db, `receipt:payment:${String(student.paymentId)}`);
      expect(receipts).toHaveLength(1);
      const [receipt] = receipts;
      expect(receipt?.recipient).toBe(student.email);
      expect(receipt?.text_body).toContain('$29.95');
      expect(receipt?.text_body).toContain('ending in 4242');
      expect(receipt?.language).toBe('en');
      expect(receipt?.text_body).toContain(`for the ${court.name}`);
      expect(receipt?.text_body).toContain(t.config.schoolName);
      expect(receipt?.text_body).toContain(t.config.supportEmail);
    });

    it('queues a refund receipt, in Spanish for a Spanish-speaking student', async () => {
      const student = await paidByCard(t, { language: 'es' });
      const { cookie } = await signedInStaff(t, 'super_admin');
      const response = await refundStudent(t, cookie, student.id, { amount_cents: 1000, reason });
      const { id } = response.json<{ id: number }>();

      const [receipt] = await queuedEmails(t.db, `refund:${String(id)}`);
      expect(receipt?.language).toBe('es');
      expect(receipt?.subject).toContain('reembolso');
      expect(receipt?.text_body).toContain('10.00');
      expect(receipt?.text_body).toContain('4242');
    });

    it('sends no second refund receipt for a double click', async () => {
      const student = await paidByCard(t);
      const { cookie } = await signedInStaff(t, 'super_admin');
      const first = await refundStudent(t, cookie, student.id, { amount_cents: 300, reason });
      await refundStudent(t, cookie, student.id, { amount_cents: 300, reason });
      expect(await queuedEmails(t.db, `refund:${String(first.json<{ id: number }>().id)}`)).toHaveLength(1);
    });
  });

  it('counts revenue net of refunds on the dashboard', async () => {
    const { cookie } = await signedInStaff(t, 'super_admin');
    const revenue = async () => {
      const stats = await t.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie } });
      return stats.json<{ name: string; value: number }[]>().find((stat) => stat.name === 'revenue')?.value;
    };
    const student = await paidByCard(t);
    const before = await revenue();

    await refundStudent(t, cookie, student.id, { amount_cents: 1200, reason });

    expect(await revenue()).toBe((before ?? 0) - 1200);
  });
});

describe('refunds through Stripe (the local stand-in)', () => {
  const rig = stripeRig();
  let t: TestApp;
  beforeAll(async () => {
    t = await rig.start();
  });
  afterAll(async () => {
    await t.close();
    await rig.stop();
  });

  const refundCalls = () =>
    rig.server().requests.filter((request) => request.path === '/v1/refunds' && request.method === 'POST');

  it('refunds through the Refunds API on the PaymentIntent, with an idempotency key, and stores the card’s last four', async () => {
    const student = await paidByCard(t, {}, rig.server());
    const { cookie } = await signedInStaff(t, 'super_admin');
    const callsBefore = refundCalls().length;

    const response = await refundStudent(t, cookie, student.id, { amount_cents: 1500, reason });

    expect(response.statusCode).toBe(201);
    const calls = refundCalls().slice(callsBefore);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.form).toEqual(expect.objectContaining({ payment_intent: student.intentId, amount: '1500' }));
    expect(calls[0]?.idempotencyKey).toMatch(/^refund:/);
    expect(
      rig
        .server()
        .refunds()
        .filter((refund) => refund.payment_intent === student.intentId),
    ).toHaveLength(1);
    const [receipt] = await queuedEmails(t.db, `receipt:payment:${String(student.paymentId)}`);
    expect(receipt?.text_body).toContain('ending in 4242');
  });

  it('records a refund made in Stripe’s dashboard once, however often charge.refunded arrives', async () => {
    const student = await paidByCard(t, {}, rig.server());
    rig.server().refundInDashboard(student.intentId, 500);

    for (let delivery = 0; delivery < 2; delivery++) {
      const payload = rig.server().chargeRefundedEvent(student.intentId);
      const response = await deliverWebhook(t, payload, signStripePayload(payload));
      expect(response.statusCode).toBe(200);
    }

    const recorded = await refundsOf(t.db, student.id);
    expect(recorded).toEqual([expect.objectContaining({ amountCents: 500, staffId: null, status: 'succeeded' })]);
    expect(await queuedEmails(t.db, `refund:${String(recorded[0]?.id)}`)).toHaveLength(1);
  });

  it('does not record again a refund the school made, when its charge.refunded arrives', async () => {
    const student = await paidByCard(t, {}, rig.server());
    const { cookie } = await signedInStaff(t, 'super_admin');
    await refundStudent(t, cookie, student.id, { amount_cents: 800, reason });

    const payload = rig.server().chargeRefundedEvent(student.intentId);
    expect((await deliverWebhook(t, payload, signStripePayload(payload))).statusCode).toBe(200);

    expect(await refundsOf(t.db, student.id)).toEqual([expect.objectContaining({ amountCents: 800, reason })]);
  });

  it('closes an unfinished course Stripe’s dashboard refunded in full', async () => {
    const student = await paidByCard(t, {}, rig.server());
    rig.server().refundInDashboard(student.intentId);
    const payload = rig.server().chargeRefundedEvent(student.intentId);
    await deliverWebhook(t, payload, signStripePayload(payload));
    expect((await studentRow(t, student.id)).archiveReason).toBe('refunded');
  });
});
