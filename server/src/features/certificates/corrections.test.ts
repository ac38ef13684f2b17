import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate, Correction } from '@ts/contract';
import { auditLog, certificateDeliveries, certificates, students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { certificatesOf, createCourseStudent, completedStudent } from '../../testing/certificates.ts';
import { type ApiClient, signedInStaff } from '../../testing/course.ts';
import { processAllDueDeliveries } from './delivery-worker.service.ts';
import { sentMailFiles } from '../../testing/outbox.ts';

/** Corrections without a fee, and the superseded chain they leave. */
describe('certificate corrections', () => {
  let t: TestApp;
  let admin: ApiClient;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedInStaff(t, 'admin');
  });
  afterAll(async () => {
    await t.close();
  });

  const ask = (student: { id: number; client: ApiClient }, body: Record<string, unknown>) =>
    student.client.post(`/api/students/${String(student.id)}/corrections`, body);

  it('refuses a "correction" to the value the certificate already shows', async () => {
    const student = await completedStudent(t);
    const same = await ask(student, { field: 'last_name', value: student.lastName, reason: 'Just checking' });
    expect(same.statusCode).toBe(400);
  });

  it('takes one request at a time, checked as the registration form checks the field, and none before a certificate', async () => {
    const notYet = await createCourseStudent(t);
    const early = await ask(notYet, { field: 'last_name', value: 'Rivers', reason: 'Typo in my name' });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('COURSE_NOT_COMPLETE');

    const student = await completedStudent(t);
    const badDate = await ask(student, { field: 'dob', value: '13/45/1990', reason: 'Wrong date' });
    expect(badDate.statusCode).toBe(400);
    const first = await ask(student, { field: 'dl_number', value: 'd 555-0101', reason: 'One digit wrong' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<Correction>()).toMatchObject({
      field: 'dl_number',
      old_value: student.dlNumber,
      value: 'D5550101',
      status: 'pending',
    });
    const second = await ask(student, { field: 'last_name', value: 'Rivers', reason: 'And my name' });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('CORRECTION_PENDING');
  });

  it('approves in one step: the record corrected, the certificate reissued free with a new number, the old one superseded', async () => {
    const student = await completedStudent(t);
    const [original] = await certificatesOf(t.db, student.id);
    const asked = (
      await ask(student, { field: 'last_name', value: 'Riviera', reason: 'Misspelled' })
    ).json<Correction>();

    t.clock.advance(3600_000);
    const approved = await admin.post(`/api/admin/corrections/${String(asked.id)}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    const decision = approved.json<Correction>();
    expect(decision).toMatchObject({ status: 'approved', decided_at: t.clock.now().toISOString() });

    const [row] = await t.db.select().from(students).where(eq(students.id, student.id));
    expect(row?.lastName).toBe('Riviera');
    const [old, reissued] = await certificatesOf(t.db, student.id);
    expect(old).toMatchObject({ id: original!.id, supersededAt: t.clock.now() });
    expect(reissued).toMatchObject({
      number: decision.certificate_number,
      source: 'correction',
      completionDate: original!.completionDate,
      replacesId: original!.id,
      supersededAt: null,
    });
    expect(reissued!.number).not.toBe(original!.number);
    expect(reissued!.snapshot).toMatchObject({ studentName: 'Sam Riviera', replaces: original!.number });

    // Delivered once to the student and once to the court; the old one's unsent emails never go.
    const deliveries = await t.db.select().from(certificateDeliveries);
    expect(
      deliveries
        .filter((delivery) => delivery.certificateId === reissued!.id)
        .map((delivery) => [delivery.recipient, delivery.status]),
    ).toEqual([
      ['student', 'queued'],
      ['court', 'queued'],
    ]);
    expect(
      deliveries.filter((delivery) => delivery.certificateId === original!.id).map((delivery) => delivery.status),
    ).toEqual(['cancelled', 'cancelled']);

    // The old number verifies as superseded by the new; the new one is valid.
    const oldVerify = (await t.app.inject({ method: 'GET', url: `/api/public/verify/${original!.number}` })).json();
    expect(oldVerify).toMatchObject({
      valid: false,
      superseded_by: reissued!.number,
      superseded_at: t.clock.now().toISOString(),
    });
    const newVerify = (await t.app.inject({ method: 'GET', url: `/api/public/verify/${reissued!.number}` })).json();
    expect(newVerify).toMatchObject({ valid: true, superseded_by: null });

    // The student's call after a pass, asked again, answers the reissue, not the replaced certificate.
    const own = await student.client.post('/api/pdf/certificate', { studentId: student.id });
    expect(own.json<Certificate>().number).toBe(reissued!.number);

    // The student's certificates: the corrected one first, saying what it replaces.
    const list = (await student.client.get(`/api/students/${String(student.id)}/certificate/all`)).json<
      Certificate[]
    >();
    expect(
      list.map((certificate) => [certificate.number, certificate.replaces, Boolean(certificate.superseded_at)]),
    ).toEqual([
      [reissued!.number, original!.number, false],
      [original!.number, null, true],
    ]);

    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entityId, asked.id));
    expect(audit.find((entry) => entry.action === 'approve_correction')).toMatchObject({
      before: { last_name: student.lastName, certificate: original!.number },
      after: { last_name: 'Riviera', certificate: reissued!.number },
    });
    // The worker sends the corrected certificate, once to each, and never the replaced one.
    const outboxBefore = sentMailFiles(t.outboxDir).length;
    await processAllDueDeliveries(t.db, t.clock, t.config, t.mailer);
    await processAllDueDeliveries(t.db, t.clock, t.config, t.mailer);
    const sentMail = sentMailFiles(t.outboxDir)
      .slice(outboxBefore)
      .map((name) => fs.readFileSync(path.join(t.outboxDir, name), 'utf8'))
      // Quoted-printable soft line breaks joined back.
      .map((mail) => mail.replace(/=\r?\n/g, ''));
    const ofThisStudent = sentMail.filter((mail) => mail.includes(reissued!.number) || mail.includes(original!.number));
    expect(ofThisStudent).toHaveLength(2);
    for (const mail of ofThisStudent) {
      expect(mail).toMatch(new RegExp(`\\(${reissued!.number}\\)`));
      expect(mail).toContain(`Corrected certificate: replaces ${original!.number}`);
    }

    const twice = await admin.post(`/api/admin/corrections/${String(asked.id)}/approve`, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('CORRECTION_DECIDED');
    expect(await certificatesOf(t.db, student.id)).toHaveLength(2);
  });

  it('sends a reader of every certificate a correction replaced, not only the newest, to the reissue; their unsent emails are cancelled, not failed', async () => {
    const superAdmin = await signedInStaff(t, 'super_admin');
    const student = await completedStudent(t);
    const [completion] = await certificatesOf(t.db, student.id);
    const issued = await superAdmin.post('/api/pdf/certificate?noEmail=1', {
      studentId: student.id,
      completionDate: 'January 2, 2024',
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const asked = (await ask(student, { field: 'last_name', value: 'Rivera', reason: 'Typo' })).json<Correction>();
    const failedBefore = await failedDeliveriesOnDashboard();

    expect((await admin.post(`/api/admin/corrections/${String(asked.id)}/approve`, {})).statusCode).toBe(200);

    const all = await certificatesOf(t.db, student.id);
    const reissue = all.find((certificate) => certificate.source === 'correction')!;
    for (const replaced of all.filter((certificate) => certificate.id !== reissue.id)) {
      const verified = (await t.app.inject({ method: 'GET', url: `/api/public/verify/${replaced.number}` })).json();
      expect(verified).toMatchObject({ valid: false, superseded_by: reissue.number });
    }
    // The completion certificate's emails to the student and the court had not gone yet.
    const stopped = await t.db
      .select({ status: certificateDeliveries.status })
      .from(certificateDeliveries)
      .where(eq(certificateDeliveries.certificateId, completion!.id));
    expect(stopped.map((delivery) => delivery.status)).toEqual(['cancelled', 'cancelled']);
    expect(await failedDeliveriesOnDashboard()).toBe(failedBefore);
    const [shown] = (await student.client.get(`/api/students/${String(student.id)}/certificate/all`))
      .json<Certificate[]>()
      .filter((certificate) => certificate.number === completion!.number);
    expect(shown!.timeline.filter((step) => step.step === 'emailed_student' || step.step === 'sent_to_court')).toEqual([
      { step: 'emailed_student', at: null, state: 'cancelled' },
      { step: 'sent_to_court', at: null, state: 'cancelled' },
    ]);

    async function failedDeliveriesOnDashboard(): Promise<number> {
      const stats = (await superAdmin.get('/api/admin/stats')).json<{ name: string; value: number }[]>();
      return stats.find((stat) => stat.name === 'failed_deliveries')!.value;
    }
  });

  it('does not reissue the certificate of an enrolment archived since the request (a retake): the request can only be rejected', async () => {
    const student = await completedStudent(t);
    const asked = (await ask(student, { field: 'last_name', value: 'Rivas', reason: 'Typo' })).json<Correction>();
    const retake = await t.app.inject({
      method: 'DELETE',
      url: `/api/students/${String(student.id)}`,
      headers: { cookie: student.client.cookie },
    });
    expect(retake.statusCode, retake.body).toBe(204);
    const certificatesBefore = await certificatesOf(t.db, student.id);

    const approved = await admin.post(`/api/admin/corrections/${String(asked.id)}/approve`, {});

    expect(approved.statusCode).toBe(409);
    expect(approved.json().error.code).toBe('ENROLMENT_ARCHIVED');
    expect(await certificatesOf(t.db, student.id)).toEqual(certificatesBefore);
    const [row] = await t.db.select().from(students).where(eq(students.id, student.id));
    expect(row?.lastName).toBe(student.lastName);
    const rejected = await admin.post(`/api/admin/corrections/${String(asked.id)}/reject`, {
      note: 'You started the course again; ask on your new enrolment.',
    });
    expect(rejected.json<Correction>()).toMatchObject({ status: 'rejected' });
  });

  it('rejects with a note the student reads, and then takes a new request', async () => {
    const student = await completedStudent(t);
    const asked = (
      await ask(student, { field: 'first_name', value: 'Samuel', reason: 'Full name' })
    ).json<Correction>();
    const rejected = await admin.post(`/api/admin/corrections/${String(asked.id)}/reject`, {
      note: 'Your licence says Sam; the certificate must match it.',
    });
    expect(rejected.json<Correction>()).toMatchObject({ status: 'rejected' });
    const own = (await student.client.get(`/api/students/${String(student.id)}/corrections`)).json<Correction[]>();
    expect(own[0]).toMatchObject({ status: 'rejected', note: 'Your licence says Sam; the certificate must match it.' });
    expect((await ask(student, { field: 'case_number', value: 'TR-1', reason: 'Add my case' })).statusCode).toBe(201);
    const [row] = await t.db.select().from(certificates).where(eq(certificates.studentId, student.id));
    expect(row?.supersededAt).toBeNull();
  });

  it("keeps each court's admins to their court's requests, and clerks and students out", async () => {
    const student = await completedStudent(t);
    const asked = (await ask(student, { field: 'last_name', value: 'Rios', reason: 'Typo' })).json<Correction>();
    const otherCourtAdmin = await signedInStaff(t, 'admin', (await completedStudent(t)).court.id);
    expect((await otherCourtAdmin.post(`/api/admin/corrections/${String(asked.id)}/approve`, {})).statusCode).toBe(404);
    expect(
      (await otherCourtAdmin.get('/api/admin/corrections?status=pending')).json<Correction[]>().map((c) => c.id),
    ).not.toContain(asked.id);
    const clerk = await signedInStaff(t, 'clerk');
    expect((await clerk.post(`/api/admin/corrections/${String(asked.id)}/approve`, {})).statusCode).toBe(403);
    expect((await student.client.post(`/api/admin/corrections/${String(asked.id)}/approve`, {})).statusCode).toBe(403);
    const ownCourtAdmin = await signedInStaff(t, 'admin', student.court.id);
    expect(
      (await ownCourtAdmin.get('/api/admin/corrections?status=pending')).json<Correction[]>().map((c) => c.id),
    ).toContain(asked.id);
    expect((await ownCourtAdmin.post(`/api/admin/corrections/${String(asked.id)}/approve`, {})).statusCode).toBe(200);
  });

  it("counts a student's requests per student, and refuses the sixth within the hour", async () => {
    const student = await completedStudent(t);
    const codes: number[] = [];
    for (let n = 0; n < 6; n++) {
      codes.push(
        (await ask(student, { field: 'last_name', value: `Rivas${'s'.repeat(n)}`, reason: 'Typo' })).statusCode,
      );
    }
    expect(codes).toEqual([201, 409, 409, 409, 409, 429]);
    // Another student on the same address is not held back, nor can one use up another's limit.
    const other = await completedStudent(t);
    const victim = await completedStudent(t);
    for (let n = 0; n < 6; n++) {
      const foreign = await other.client.post(`/api/students/${String(victim.id)}/corrections`, {
        field: 'last_name',
        value: 'Rivas',
        reason: 'Typo',
      });
      expect(foreign.statusCode).not.toBe(201);
    }
    expect((await ask(victim, { field: 'last_name', value: 'Rivas', reason: 'Typo' })).statusCode).toBe(201);
  });

  /** Five requests the schema refuses: a date that is no date, no reason, a field that cannot be corrected... */
  const INVALID_REQUESTS = [
    { field: 'dob', value: '13/45/1990', reason: 'Wrong date' },
    { field: 'dob', value: '1990-04-15', reason: 'Wrong date' },
    { field: 'last_name', value: 'Rivers', reason: '' },
    { field: 'court', value: '3', reason: 'Wrong court' },
    { field: 'last_name', value: '   ', reason: 'Typo in my name' },
  ];

  async function askInvalidFiveTimes(student: { id: number; client: ApiClient }) {
    for (const body of INVALID_REQUESTS) {
      const refused = await ask(student, body);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.code).toBe('VALIDATION_FAILED');
    }
  }

  it('does not count requests refused as invalid input: after five, a valid request is accepted', async () => {
    const student = await completedStudent(t);
    await askInvalidFiveTimes(student);

    const valid = await ask(student, { field: 'last_name', value: 'Rivers', reason: 'Typo in my name' });

    expect(valid.statusCode, valid.body).toBe(201);
  });

  it('still refuses the sixth well-formed request within the hour, after invalid ones too', async () => {
    const student = await completedStudent(t);
    await askInvalidFiveTimes(student);

    const codes: number[] = [];
    for (let n = 0; n < 6; n++) {
      codes.push(
        (await ask(student, { field: 'last_name', value: `Rivas${'s'.repeat(n)}`, reason: 'Typo' })).statusCode,
      );
    }

    expect(codes).toEqual([201, 409, 409, 409, 409, 429]);
  });
});
