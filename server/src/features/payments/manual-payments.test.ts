import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { createCourt, createStaff, createStudent } from '../../testing/factories.ts';
import {
  startPayment,
  confirmTestCard,
  signInAsStudent,
  signInAsStaff,
  paymentAtOf,
  paymentsOf,
  expectUnpaid,
} from '../../testing/payments.ts';

describe('POST /api/admin/markPaid/{studentId} (money received another way)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const markPaidByStaff = (studentId: number, cookie?: string, payload: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/markPaid/${String(studentId)}`,
      payload,
      ...(cookie ? { headers: { cookie } } : {}),
    });

  it('refuses a caller who is not signed in with a 401', async () => {
    const student = await createStudent(t.db);
    const response = await markPaidByStaff(student.id);
    expect(response.statusCode).toBe(401);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('UNAUTHENTICATED');
    await expectUnpaid(t.db, student.id);
  });

  it('refuses a student with a 403', async () => {
    const student = await createStudent(t.db);
    const cookie = await signInAsStudent(t, student);
    const response = await markPaidByStaff(student.id, cookie);
    expect(response.statusCode).toBe(403);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('FORBIDDEN');
    await expectUnpaid(t.db, student.id);
  });

  it.each(['admin', 'clerk'] as const)('refuses the role %s with a 403 (only a super_admin may)', async (role) => {
    const student = await createStudent(t.db);
    const { cookie } = await signInAsStaff(t, role);
    const response = await markPaidByStaff(student.id, cookie);
    expect(response.statusCode).toBe(403);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('FORBIDDEN');
    await expectUnpaid(t.db, student.id);
  });

  it('lets a super_admin mark a student paid, recording who did it and when', async () => {
    const student = await createStudent(t.db);
    const superAdmin = await signInAsStaff(t, 'super_admin');
    const paidAt = t.clock.now();

    const response = await markPaidByStaff(student.id, superAdmin.cookie);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ studentId: student.id, payment_at: paidAt.toISOString() });
    expect(await paymentAtOf(t.db, student.id)).toEqual(paidAt);
    expect(await paymentsOf(t.db, student.id)).toEqual([
      {
        id: expect.any(Number) as number,
        studentId: student.id,
        method: 'manual',
        provider: null,
        providerPaymentId: null,
        // Without an amount, the course price for the student's court (the school's here; decision 026).
        amountCents: t.config.coursePriceCents,
        currency: 'usd',
        manualMethod: null,
        recordedByStaffId: superAdmin.id,
        cardLast4: null,
        createdAt: paidAt,
      },
    ]);
  });

  it('records the amount taken and how, the court’s own price by default, and a waived course as zero (decision 026)', async () => {
    const superAdmin = await signInAsStaff(t, 'super_admin');
    const court = await createCourt(t.db, { priceCents: 3995 });
    const byCheque = await createStudent(t.db, { courtId: court.id });
    await markPaidByStaff(byCheque.id, superAdmin.cookie, { manual_method: 'cheque' });
    const byPhone = await createStudent(t.db);
    await markPaidByStaff(byPhone.id, superAdmin.cookie, { manual_method: 'phone', amount_cents: 2500 });
    const waived = await createStudent(t.db, { courtId: court.id });
    await markPaidByStaff(waived.id, superAdmin.cookie, { manual_method: 'waived', amount_cents: 3995 });

    const recorded = async (id: number) =>
      (await paymentsOf(t.db, id)).map((row) => [row.manualMethod, row.amountCents]);
    expect(await recorded(byCheque.id)).toEqual([['cheque', 3995]]);
    expect(await recorded(byPhone.id)).toEqual([['phone', 2500]]);
    expect(await recorded(waived.id)).toEqual([['waived', 0]]);
  });

  it('records the super_admin of the session, not a userId in the body', async () => {
    const student = await createStudent(t.db);
    const superAdmin = await signInAsStaff(t, 'super_admin');
    const someoneElse = await createStaff(t.db, { role: 'super_admin' });

    await markPaidByStaff(student.id, superAdmin.cookie, { userId: someoneElse.id });

    expect((await paymentsOf(t.db, student.id)).map((row) => row.recordedByStaffId)).toEqual([superAdmin.id]);
  });

  it('changes nothing when a paid student is marked again', async () => {
    const student = await createStudent(t.db);
    const { cookie } = await signInAsStaff(t, 'super_admin');
    const paidAt = t.clock.now();
    await markPaidByStaff(student.id, cookie);
    t.clock.advance(3600_000);

    const again = await markPaidByStaff(student.id, cookie);

    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ studentId: student.id, payment_at: paidAt.toISOString() });
    expect(await paymentAtOf(t.db, student.id)).toEqual(paidAt);
    expect(await paymentsOf(t.db, student.id)).toHaveLength(1);
  });

  it('records no manual payment for a student who already paid by card', async () => {
    const student = await createStudent(t.db);
    const intent = await startPayment(t, student.id);
    await confirmTestCard(t, intent);
    const paidAt = t.clock.now();
    const { cookie } = await signInAsStaff(t, 'super_admin');
    t.clock.advance(3600_000);

    const response = await markPaidByStaff(student.id, cookie);

    expect(response.json()).toEqual({ studentId: student.id, payment_at: paidAt.toISOString() });
    expect((await paymentsOf(t.db, student.id)).map((row) => row.method)).toEqual(['card']);
  });

  it('answers 404 for a student that does not exist, or an archived enrolment', async () => {
    const archived = await createStudent(t.db, { archivedAt: new Date('2026-11-01T00:00:00Z') });
    const { cookie } = await signInAsStaff(t, 'super_admin');
    for (const studentId of [987_654, archived.id]) {
      const response = await markPaidByStaff(studentId, cookie);
      expect(response.statusCode).toBe(404);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
    }
    await expectUnpaid(t.db, archived.id);
  });
});
