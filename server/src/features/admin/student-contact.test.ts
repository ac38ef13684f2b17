import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, certificateDeliveries, students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import {
  createCourseStudent,
  onlyCertificateOf,
  recordCourseCompletion,
  completedStudent,
} from '../../testing/certificates.ts';
import { type ApiClient, signedInStaff } from '../../testing/course.ts';
import { createStudent } from '../../testing/factories.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { processAllDueDeliveries } from '../certificates/delivery-worker.service.ts';
import { sentMailFiles } from '../../testing/outbox.ts';

const NEW_CONTACT = {
  email: 'lucia.fixed@example.com',
  address: '9 Pine Road',
  city: 'Reno',
  state: 'NV',
  zip: '89501',
};

/** An address that cannot receive mail, and staff correcting it. */
describe("a student's contact details", () => {
  let t: TestApp;
  let admin: ApiClient;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedInStaff(t, 'admin');
  });
  afterAll(async () => {
    await t.close();
  });

  const mailTo = (address: string) =>
    sentMailFiles(t.outboxDir)
      .map((name) => fs.readFileSync(path.join(t.outboxDir, name), 'utf8'))
      .filter((mail) => mail.includes(`To: ${address}`));

  /** A student registered with an email that reaches no one, their certificate's deliveries worked once. */
  let sequence = 0;
  async function undeliverable() {
    sequence += 1;
    const student = await createCourseStudent(t, { email: `not-an-email-${String(sequence)}` });
    await recordCourseCompletion(t, student.id);
    await processAllDueDeliveries(t.db, t.clock, t.config, t.mailer);
    const certificate = await onlyCertificateOf(t.db, student.id);
    const deliveries = async () =>
      t.db.select().from(certificateDeliveries).where(eq(certificateDeliveries.certificateId, certificate.id));
    return { student, certificate, deliveries };
  }

  it('fails a certificate email to an address that cannot receive mail at once, without retries, saying why', async () => {
    const { deliveries } = await undeliverable();
    const toStudent = (await deliveries()).find((delivery) => delivery.recipient === 'student');
    expect(toStudent).toMatchObject({ status: 'failed', attempts: 1 });
    expect(toStudent?.lastError).toContain('"not-an-email-1" is not an email address');
    expect(mailTo('not-an-email-1')).toEqual([]);
    // The court's copy went as usual.
    expect((await deliveries()).find((delivery) => delivery.recipient === 'court')?.status).toBe('sent');
  });

  it('lets an admin correct the email and address, audited, and resend the certificate in the same step', async () => {
    const { student, deliveries } = await undeliverable();
    const response = await admin.put(`/api/admin/students/${String(student.id)}/contact`, {
      ...NEW_CONTACT,
      resend: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ email: NEW_CONTACT.email, address: NEW_CONTACT.address });
    const [row] = await t.db.select().from(students).where(eq(students.id, student.id));
    expect(row).toMatchObject({ email: NEW_CONTACT.email, city: 'Reno', state: 'NV', zip: '89501' });
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'update_contact'));
    expect(entry).toMatchObject({
      entityId: student.id,
      before: { email: student.email },
      after: { email: NEW_CONTACT.email, resend: true },
    });

    expect((await deliveries()).find((delivery) => delivery.recipient === 'student')).toMatchObject({
      status: 'queued',
      email: NEW_CONTACT.email,
      lastError: null,
    });
    await processAllDueDeliveries(t.db, t.clock, t.config, t.mailer);
    expect(mailTo(NEW_CONTACT.email)).toHaveLength(1);
  });

  it('refuses an email another active enrolment uses, changing nothing; refuses clerks and other courts', async () => {
    const { student } = await undeliverable();
    const holder = await createStudent(t.db);
    const taken = await admin.put(`/api/admin/students/${String(student.id)}/contact`, {
      ...NEW_CONTACT,
      email: holder.email,
      resend: false,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.in_use).toBe('email');
    const [row] = await t.db.select().from(students).where(eq(students.id, student.id));
    expect(row?.email).toBe(student.email);

    const clerk = await signedInStaff(t, 'clerk');
    const otherCourt = await createCourseStudent(t);
    const courtAdmin = await signedInStaff(t, 'admin', otherCourt.court.id);
    const body = { ...NEW_CONTACT, email: 'someone.else@example.com', resend: false };
    expect((await clerk.put(`/api/admin/students/${String(student.id)}/contact`, body)).statusCode).toBe(403);
    expect((await courtAdmin.put(`/api/admin/students/${String(student.id)}/contact`, body)).statusCode).toBe(404);
  });

  it('keeps an enrolment archived by a retake as it was: its contact is not changed and its certificate not sent again', async () => {
    const { student, deliveries } = await undeliverable();
    const retake = await t.app.inject({
      method: 'DELETE',
      url: `/api/students/${String(student.id)}`,
      headers: { cookie: student.client.cookie },
    });
    expect(retake.statusCode, retake.body).toBe(204);
    const archivedRow = async () => (await t.db.select().from(students).where(eq(students.id, student.id)))[0];
    const [recordBefore, deliveriesBefore] = [await archivedRow(), await deliveries()];

    const refused = await admin.put(`/api/admin/students/${String(student.id)}/contact`, {
      ...NEW_CONTACT,
      resend: true,
    });

    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('ENROLMENT_ARCHIVED');
    expect(await archivedRow()).toEqual(recordBefore);
    expect(recordBefore?.email).not.toBe(NEW_CONTACT.email);
    expect(await deliveries()).toEqual(deliveriesBefore);
  });

  it('sends the certificate to the corrected address when the contact is corrected while it is going to the old one', async () => {
    const student = await completedStudent(t, { email: 'lucia.old@example.com' });
    const corrected = 'lucia.during@example.com';
    // The admin's correction lands while the worker is handing the old address's email to the mail server.
    const correctingMailer: Mailer = {
      kind: t.mailer.kind,
      close: () => t.mailer.close(),
      send: async (message) => {
        if (message.to === student.email) {
          const response = await admin.put(`/api/admin/students/${String(student.id)}/contact`, {
            ...NEW_CONTACT,
            email: corrected,
            resend: true,
          });
          expect(response.statusCode, response.body).toBe(200);
        }
        return t.mailer.send(message);
      },
    };

    await processAllDueDeliveries(t.db, t.clock, t.config, correctingMailer);
    const certificate = await onlyCertificateOf(t.db, student.id);
    const toStudent = async () =>
      (
        await t.db.select().from(certificateDeliveries).where(eq(certificateDeliveries.certificateId, certificate.id))
      ).find((delivery) => delivery.recipient === 'student');
    expect(await toStudent()).toMatchObject({ status: 'queued', email: corrected });

    await processAllDueDeliveries(t.db, t.clock, t.config, t.mailer);
    expect(await toStudent()).toMatchObject({ status: 'sent', email: corrected });
    expect(mailTo(corrected)).toHaveLength(1);
  });
});
