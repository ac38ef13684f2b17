import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate, CourtCompletion } from '@ts/contract';
import { auditLog, certificateDeliveries, certificates } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { completedStudent } from '../../testing/certificates.ts';
import { signedInStaff } from '../../testing/course.ts';
import { sentMailFiles } from '../../testing/outbox.ts';

type Page = { rows: CourtCompletion[]; total: number; page: number; pageSize: number };

/** The court's own view of its completions, and its acknowledgement of receipt. */
describe('the court view', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("shows a court's own clerk that court's completions only, with what a clerk matches a ticket by", async () => {
    const mine = await completedStudent(t, { caseNumber: 'TR-88-1' });
    const other = await completedStudent(t);
    const clerk = await signedInStaff(t, 'clerk', mine.court.id);
    const response = await clerk.get(`/api/court/completions?courtId=${String(other.court.id)}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<Page>();
    expect(page).toMatchObject({ total: 1, page: 1, pageSize: 50 });
    expect(page.rows).toEqual([
      {
        certificate_number: mine.certificate.number,
        first_name: 'Sam',
        last_name: mine.lastName,
        dl_number: mine.dlNumber,
        case_number: 'TR-88-1',
        completed_at: mine.certificate.completionDate,
        court_email_sent_at: null,
        acknowledged_at: null,
      },
    ]);
    // Another court's certificate does not exist for this clerk.
    const foreign = await clerk.post(`/api/court/completions/${other.certificate.number}/acknowledge`, {});
    expect(foreign.statusCode).toBe(404);
  });

  it('searches by name, licence or case number, filters by completion date, and shows when the court was emailed', async () => {
    const student = await completedStudent(t, { caseNumber: 'CIT-2026-5512' });
    await t.db
      .update(certificateDeliveries)
      .set({ status: 'sent', sentAt: new Date('2026-11-20T17:00:00Z') })
      .where(eq(certificateDeliveries.certificateId, student.certificate.id));
    const clerk = await signedInStaff(t, 'clerk', student.court.id);
    const find = async (query: string) =>
      (await clerk.get(`/api/court/completions?${query}`)).json<Page>().rows.map((row) => row.certificate_number);
    for (const search of [student.lastName, student.dlNumber.toLowerCase(), 'cit-2026', `Sam ${student.lastName}`]) {
      expect(await find(`search=${encodeURIComponent(search)}`), search).toEqual([student.certificate.number]);
    }
    expect(await find('search=nobody-at-all')).toEqual([]);
    // Decision 064: a clerk types a name without its accents.
    const accented = await completedStudent(t, { firstName: 'José', lastName: 'Hernández Peña' });
    const clerkOfAccented = await signedInStaff(t, 'clerk', accented.court.id);
    for (const search of ['hernandez', 'jose hernandez', 'PENA']) {
      const rows = (
        await clerkOfAccented.get(`/api/court/completions?search=${encodeURIComponent(search)}`)
      ).json<Page>().rows;
      expect(
        rows.map((row) => row.certificate_number),
        search,
      ).toEqual([accented.certificate.number]);
    }
    const day = student.certificate.completionDate;
    expect(await find(`from=${day}&to=${day}`)).toEqual([student.certificate.number]);
    expect(await find('to=2000-01-01')).toEqual([]);
    const [row] = (await clerk.get('/api/court/completions')).json<Page>().rows;
    expect(row?.court_email_sent_at).toBe('2026-11-20T17:00:00.000Z');
  });

  it.each(['2024-13-45', '2024-02-30', '2023-02-29', '0000-00-00'])(
    'refuses a completion date that is not a calendar day (%s) as bad input, not a server error',
    async (day) => {
      const clerk = await signedInStaff(t, 'clerk', (await completedStudent(t)).court.id);
      for (const query of [`from=${day}`, `to=${day}`]) {
        const response = await clerk.get(`/api/court/completions?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json<{ error: { code: string } }>().error.code).toBe('VALIDATION_FAILED');
      }
    },
  );

  it('records an acknowledgement once, by whom, audited, and emails the student once', async () => {
    const student = await completedStudent(t);
    const clerk = await signedInStaff(t, 'clerk', student.court.id);
    const outboxBefore = sentMailFiles(t.outboxDir).length;
    const first = await clerk.post(`/api/court/completions/${student.certificate.number}/acknowledge`, {});
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<CourtCompletion>().acknowledged_at).toBe(t.clock.now().toISOString());

    t.clock.advance(60_000);
    const again = await clerk.post(`/api/court/completions/${student.certificate.number}/acknowledge`, {});
    expect(again.json<CourtCompletion>().acknowledged_at).toBe(first.json<CourtCompletion>().acknowledged_at);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entityId, student.certificate.id));
    expect(audit.filter((entry) => entry.action === 'acknowledge_certificate')).toHaveLength(1);
    // Sent after the answer, without holding it up: wait for the file.
    await expect.poll(() => sentMailFiles(t.outboxDir).length, { timeout: 5000 }).toBe(outboxBefore + 1);
    const mail = sentMailFiles(t.outboxDir).slice(outboxBefore);
    expect(mail).toHaveLength(1);
    expect(fs.readFileSync(`${t.outboxDir}/${mail[0]!}`, 'utf8')).toContain(`To: ${student.email}`);

    // The student's tracker now says the court has it.
    const [row] = await t.db.select().from(certificates).where(eq(certificates.id, student.certificate.id));
    expect(row?.acknowledgedByStaffId).not.toBeNull();
    const own = (await student.client.get(`/api/students/${String(student.id)}/certificate/all`)).json<Certificate[]>();
    expect(own[0]?.timeline.at(-1)).toEqual({
      step: 'court_acknowledged',
      at: first.json<CourtCompletion>().acknowledged_at,
      state: 'done',
    });
  });

  it('lets admins over every court read any court, and never acknowledge for the court', async () => {
    const student = await completedStudent(t);
    const admin = await signedInStaff(t, 'admin');
    const one = (await admin.get(`/api/court/completions?courtId=${String(student.court.id)}`)).json<Page>();
    expect(one.rows.map((row) => row.certificate_number)).toEqual([student.certificate.number]);
    const all = (await admin.get('/api/court/completions')).json<Page>();
    expect(all.total).toBeGreaterThan(1);
    expect((await admin.post(`/api/court/completions/${student.certificate.number}/acknowledge`, {})).statusCode).toBe(
      403,
    );
    const schoolClerk = await signedInStaff(t, 'clerk');
    expect((await schoolClerk.get('/api/court/completions')).statusCode).toBe(403);
    expect((await student.client.get('/api/court/completions')).statusCode).toBe(403);
  });
});
