import { eq } from 'drizzle-orm';
import { currentProfileVersion } from '../../testing/rules.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate, RulesProfile, StateFiling, StateFilingRow, StateFilingsOverview } from '@ts/contract';
import { auditLog, certificateDeliveries, rulesProfiles, students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { completedStudent } from '../../testing/certificates.ts';
import { apiClient, signedInStaff, type StaffClient } from '../../testing/course.ts';
import { createCounty, createCourt, createStaff } from '../../testing/factories.ts';
import { signInStaff, signInStudent } from '../../testing/sign-in.ts';
import { getRulesProfile } from '../rules/rules.service.ts';

/** Certificates held for a state's report, exported in batches and marked filed or rejected. */
describe('state filings', () => {
  let t: TestApp;
  let admin: StaffClient;
  let adminId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedInStaff(t, 'admin');
    adminId = admin.member.id;
    // A profile like six-hour-daily-cap whose court is emailed once the state has it on file.
    const held = await getRulesProfile(t.db, 'six-hour-daily-cap', currentProfileVersion('six-hour-daily-cap'));
    const courtCopy: RulesProfile = {
      ...held,
      id: 'held-then-court',
      certificate: { ...held.certificate, courtCopyAfterFiling: true },
    };
    await t.db.insert(rulesProfiles).values({ id: courtCopy.id, version: 1, definition: courtCopy });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A student of a court in `state` under a profile that holds the certificate, with the course completed. */
  async function completedIn(state: string, options: { caseNumber?: string; profile?: string } = {}) {
    const profile = options.profile ?? 'six-hour-daily-cap';
    return completedStudent(
      t,
      {
        rulesProfileId: profile,
        rulesProfileVersion: profile === 'six-hour-daily-cap' ? currentProfileVersion(profile) : 1,
        caseNumber: options.caseNumber ?? null,
        state: 'TX',
        dob: '1990-02-03',
      },
      { rulesProfileId: profile, countyId: await createCounty(t.db, { state }) },
    );
  }

  async function overview(state: string): Promise<StateFilingsOverview> {
    const response = await admin.get(`/api/admin/state-filings?state=${state}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<StateFilingsOverview>();
  }

  async function exportBatch(state: string): Promise<StateFiling> {
    const response = await admin.post('/api/admin/state-filings', { state });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<StateFiling>();
  }

  it('lists a held certificate as waiting, with the case number, and exports every waiting one as one batch, once', async () => {
    const first = await completedIn('TX', { caseNumber: 'CR-2026-0042' });
    const second = await completedIn('TX');
    // The certificate itself carries it, for the PDF and the court's email.
    expect(first.certificate.snapshot).toMatchObject({ caseNumber: 'CR-2026-0042' });
    expect(second.certificate.snapshot).not.toHaveProperty('caseNumber');
    const before = await overview('TX');
    expect(before.states).toContain('TX');
    expect(before.waiting.map((row) => row.certificate_number)).toEqual([
      first.certificate.number,
      second.certificate.number,
    ]);
    expect(before.waiting[0]).toMatchObject({
      licence_number: first.dlNumber,
      licence_state: 'TX',
      last_name: first.lastName,
      date_of_birth: '02/03/1990',
      court: first.court.name,
      case_number: 'CR-2026-0042',
      course_profile: '6-hour course, 4 hours a day',
      profile_version: currentProfileVersion('six-hour-daily-cap'),
      status: 'not_filed',
    } satisfies Partial<StateFilingRow>);

    const batch = await exportBatch('TX');
    expect(batch).toMatchObject({ state: 'TX', status: 'exported', certificates: 2, filed_at: null });
    const file = (await admin.get(`/api/admin/state-filings/${String(batch.id)}`)).json<{ rows: StateFilingRow[] }>();
    expect(file.rows.map((row) => [row.certificate_number, row.status])).toEqual([
      [first.certificate.number, 'exported'],
      [second.certificate.number, 'exported'],
    ]);

    // The batch's file stays what the state received, whatever changes in the record later.
    await t.db.update(students).set({ lastName: 'Renamed' }).where(eq(students.id, first.id));
    const later = (await admin.get(`/api/admin/state-filings/${String(batch.id)}`)).json<{ rows: StateFilingRow[] }>();
    expect(later.rows[0]?.last_name).toBe(first.lastName);

    // Nothing waits any more: a second export (a double click) makes no second batch.
    expect((await overview('TX')).waiting).toEqual([]);
    const again = await admin.post('/api/admin/state-filings', { state: 'TX' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('NOTHING_TO_FILE');
  });

  it('records the state’s confirmation once; the student then sees the filing date, and every step is audited', async () => {
    const student = await completedIn('NV');
    const batch = await exportBatch('NV');
    const studentClient = apiClient(t.app, await signInStudent(t.app, student));
    const [waiting] = (await studentClient.get(`/api/students/${String(student.id)}/certificate/all`)).json<
      Certificate[]
    >();
    expect(waiting).toMatchObject({ routing: 'held_for_state_report', state_filed_at: null });

    const filed = await admin.post(`/api/admin/state-filings/${String(batch.id)}/outcome`, {
      outcome: 'filed',
      confirmation_reference: 'NV-DMV-778812',
    });
    expect(filed.statusCode, filed.body).toBe(200);
    expect(filed.json<StateFiling>()).toMatchObject({
      status: 'filed',
      confirmation_reference: 'NV-DMV-778812',
      filed_at: t.clock.now().toISOString(),
    });
    const [shown] = (await studentClient.get(`/api/students/${String(student.id)}/certificate/all`)).json<
      Certificate[]
    >();
    expect(shown?.state_filed_at).toBe(t.clock.now().toISOString());

    const twice = await admin.post(`/api/admin/state-filings/${String(batch.id)}/outcome`, {
      outcome: 'rejected',
      reason: 'changed our mind',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('FILING_CLOSED');

    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entityId, batch.id));
    expect(
      audit.filter((entry) => entry.entityType === 'state_filing').map((entry) => [entry.action, entry.staffId]),
    ).toEqual([
      ['export_state_filing', adminId],
      ['mark_state_filing_filed', adminId],
    ]);
    // This profile does not send the court a copy: only the student's email exists.
    const deliveries = await t.db
      .select({ recipient: certificateDeliveries.recipient })
      .from(certificateDeliveries)
      .where(eq(certificateDeliveries.certificateId, student.certificate.id));
    expect(deliveries.map((delivery) => delivery.recipient)).toEqual(['student']);
  });

  it('puts a rejected batch’s certificates back in the waiting list, marked rejected, for the next batch', async () => {
    const student = await completedIn('AZ');
    const rejectedBatch = await exportBatch('AZ');
    const rejected = await admin.post(`/api/admin/state-filings/${String(rejectedBatch.id)}/outcome`, {
      outcome: 'rejected',
      reason: 'Date of birth format',
    });
    expect(rejected.json<StateFiling>()).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Date of birth format',
    });
    const after = await overview('AZ');
    expect(after.waiting.map((row) => [row.certificate_number, row.status])).toEqual([
      [student.certificate.number, 'rejected'],
    ]);
    const next = await exportBatch('AZ');
    expect(next.certificates).toBe(1);
    expect((await overview('AZ')).filings.map((filing) => [filing.id, filing.status])).toEqual([
      [next.id, 'exported'],
      [rejectedBatch.id, 'rejected'],
    ]);
  });

  it('queues the court’s copy when the batch is filed, where the profile says so', async () => {
    const student = await completedIn('UT', { profile: 'held-then-court' });
    const recipients = async () =>
      (
        await t.db
          .select({ recipient: certificateDeliveries.recipient, email: certificateDeliveries.email })
          .from(certificateDeliveries)
          .where(eq(certificateDeliveries.certificateId, student.certificate.id))
      ).map((delivery) => delivery.recipient);
    expect(await recipients()).toEqual(['student']);
    const batch = await exportBatch('UT');
    await admin.post(`/api/admin/state-filings/${String(batch.id)}/outcome`, {
      outcome: 'filed',
      confirmation_reference: 'UT-1',
    });
    expect(await recipients()).toEqual(['student', 'court']);
  });

  it('refuses a court’s own admin and any clerk, and an unknown state or batch', async () => {
    const court = await createCourt(t.db);
    for (const member of [
      await createStaff(t.db, { role: 'admin', courtId: court.id }),
      await createStaff(t.db, { role: 'clerk' }),
    ]) {
      const client = apiClient(t.app, await signInStaff(t.app, member));
      expect((await client.get('/api/admin/state-filings')).statusCode).toBe(403);
      expect((await client.post('/api/admin/state-filings', { state: 'TX' })).statusCode).toBe(403);
    }
    expect((await admin.get('/api/admin/state-filings?state=XX')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/state-filings/99999999999')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/state-filings/999999')).statusCode).toBe(404);
  });
});
