import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../../platform/mail/mailer.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { completedStudent } from '../../testing/certificates.ts';
import { signedInStaff } from '../../testing/course.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server.ts';
import { processAllDueDeliveries } from './delivery-worker.service.ts';

/**
 * Decision 057: a certificate's emails are HTML with a plain-text part, the student's in the
 * language they read the school in, the court's copy in English, the court's language of record.
 */
describe("the certificate emails' language and parts", () => {
  let smtp: SmtpTestServer;
  let mailer: Mailer;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'certificates@traffic-school.example',
      outboxDir: path.join(os.tmpdir(), 'ts-never-written'),
    });
    t = await buildTestApp({ mailer });
  });
  afterAll(async () => {
    await t.close();
    await mailer.close();
    await smtp.stop();
  });

  const mailTo = (address: string | null) => smtp.messages.filter((message) => message.to.includes(address ?? '?'));

  it("writes a Spanish student's certificate email in Spanish, HTML and text alike, and the court's copy in English", async () => {
    const student = await completedStudent(t, { language: 'es', firstName: 'Lucía', lastName: 'Núñez' });
    const { number } = student.certificate;
    expect(await processAllDueDeliveries(t.db, t.clock, t.config, mailer)).toBe(2);

    const [toStudent] = mailTo(student.email);
    expect(toStudent?.subject).toBe(`Su certificado de finalización (${number})`);
    for (const part of [toStudent?.text, toStudent?.html]) {
      expect(part).toContain('Hola, Lucía Núñez:');
      expect(part).toContain(number);
      expect(part).toContain(`${t.config.publicUrl}/login`);
      expect(part).toContain(t.config.supportEmail);
      expect(part).toContain(t.config.schoolName);
    }
    expect(toStudent?.html).toMatch(/<html[^>]* lang="es"/);
    expect(toStudent?.text).not.toContain('Congratulations');

    const [toClerk] = mailTo(student.court.email);
    expect(toClerk?.subject).toBe(`Traffic school completion: Lucía Núñez (${number})`);
    for (const part of [toClerk?.text, toClerk?.html]) {
      expect(part).toContain(`Dear Clerk of the ${student.court.name}`);
      expect(part).toContain(`${t.config.publicUrl}/verify/${number}`);
    }
    expect(toClerk?.html).toMatch(/<html[^>]* lang="en"/);
    expect(toClerk?.text).not.toContain('Hola');
  });

  it('writes an English student’s certificate email in English, with both parts', async () => {
    const student = await completedStudent(t);
    await processAllDueDeliveries(t.db, t.clock, t.config, mailer);
    const [toStudent] = mailTo(student.email);
    expect(toStudent?.subject).toBe(`Your certificate of completion (${student.certificate.number})`);
    expect(toStudent?.text).toContain('Congratulations on completing your traffic school course.');
    expect(toStudent?.html).toContain('Congratulations on completing your traffic school course.');
    expect(toStudent?.attachments.map((attachment) => attachment.filename)).toEqual(['Certificate_Of_Completion.pdf']);
  });

  it('tells the student the court has its copy only when one is sent: a court with no clerk address on file gets none, and the student is asked to give it', async () => {
    const student = await completedStudent(t, {}, { email: null });
    expect(await processAllDueDeliveries(t.db, t.clock, t.config, mailer)).toBe(1);
    const [toStudent] = mailTo(student.email);
    expect(toStudent?.text).not.toContain('A copy has been sent');
    expect(toStudent?.text).toContain(`Please give a copy to the ${student.court.name} yourself`);
  });

  it('tells a Spanish student in Spanish that their court received the certificate', async () => {
    const student = await completedStudent(t, { language: 'es', firstName: 'Lucía' });
    const clerk = await signedInStaff(t, 'clerk', student.court.id);
    const acknowledged = await clerk.post(`/api/court/completions/${student.certificate.number}/acknowledge`, {});
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    // Sent after the answer, without holding it up.
    await expect.poll(() => mailTo(student.email).length, { timeout: 5000 }).toBe(1);
    const [receipt] = mailTo(student.email);
    expect(receipt?.subject).toBe(`Su tribunal recibió su certificado (${student.certificate.number})`);
    expect(receipt?.text).toContain('Hola, Lucía:');
    expect(receipt?.html).toContain('Su tribunal confirmó que recibió su certificado de finalización');
  });
});
