import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { emailOutbox, students } from '../../db/schema.ts';
import { createStudent } from '../../testing/factories.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { queueEmail } from './email-outbox.service.ts';

const rowsWithKey = (database: Database, key: string) =>
  database.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, key));

describe('queueing an email (decision 056)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('queues an email once under its key, due now, with what it says and whom it is for', async () => {
    const student = await createStudent(database.db);
    const queued = await queueEmail(database.db, {
      key: `receipt-payment-${String(student.id)}`,
      to: student.email,
      language: 'es',
      studentId: student.id,
      subject: 'Recibo',
      text: 'Gracias por su pago.',
      html: '<p>Gracias por su pago.</p>',
    });
    expect(queued).toBe(true);
    const [row] = await rowsWithKey(database, `receipt-payment-${String(student.id)}`);
    expect(row).toMatchObject({
      recipient: student.email,
      language: 'es',
      studentId: student.id,
      subject: 'Recibo',
      textBody: 'Gracias por su pago.',
      htmlBody: '<p>Gracias por su pago.</p>',
      status: 'queued',
      attempts: 0,
      lastError: null,
      sentAt: null,
    });
  });

  it('answers false for a key already queued and leaves the first email as it was', async () => {
    const first = {
      key: 'reminder-student-1-14d',
      to: 'first@example.com',
      language: 'en' as const,
      subject: 'One',
      text: 'one',
    };
    expect(await queueEmail(database.db, first)).toBe(true);
    expect(await queueEmail(database.db, { ...first, to: 'second@example.com', subject: 'Two', text: 'two' })).toBe(
      false,
    );
    const rows = await rowsWithKey(database, first.key);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ recipient: 'first@example.com', subject: 'One', htmlBody: null, studentId: null });
  });

  it("queues nothing when the caller's transaction rolls back", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        expect(
          await queueEmail(tx, { key: 'rolled-back', to: 'a@example.com', language: 'en', subject: 's', text: 't' }),
        ).toBe(true);
        throw new Error('the caller fails after queueing');
      }),
    ).rejects.toThrow('the caller fails after queueing');
    expect(await rowsWithKey(database, 'rolled-back')).toEqual([]);
  });

  it('queues the same key once when two callers queue it at the same time', async () => {
    const message = { key: 'at-once', to: 'a@example.com', language: 'en' as const, subject: 's', text: 't' };
    const answers = await Promise.all([queueEmail(database.db, message), queueEmail(database.db, message)]);
    expect(answers.sort()).toEqual([false, true]);
    expect(await rowsWithKey(database, 'at-once')).toHaveLength(1);
  });
});

describe("the student's language column (decision 056)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('is English unless set, and refuses anything but en and es', async () => {
    const student = await createStudent(database.db);
    const [row] = await database.db
      .select({ language: students.language })
      .from(students)
      .where(eq(students.id, student.id));
    expect(row?.language).toBe('en');
    // 23514: check_violation, on the error or (wrapped by drizzle) its cause.
    const refused = await database.db
      .update(students)
      .set({ language: 'fr' as 'en' })
      .where(eq(students.id, student.id))
      .then(
        () => undefined,
        (error: unknown) => error as { code?: string; cause?: { code?: string } },
      );
    expect(refused?.code ?? refused?.cause?.code).toBe('23514');
  });
});
