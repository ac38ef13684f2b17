import type { ReportRow, Stat } from '@ts/contract';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { apiClient, signedInStaff } from '../../testing/course.ts';
import {
  archiveStudent,
  completeCourseAt,
  DAY,
  daysAgo,
  failDelivery,
  HOUR,
  recordAttempt,
  recordPaymentAt,
  registerStudentAt,
} from '../../testing/dashboard-data.ts';
import { type CreatedCourt, createCourt, createStudent, markStudentPaid } from '../../testing/factories.ts';
import { signInStudent } from '../../testing/sign-in.ts';

/**
 * The school as the dashboard sees it on 22 November 2026 at 15:00 UTC (the test clock), built
 * day by day in four courts. Every figure below is counted by hand from this story.
 *
 * Alpha:   a1 registered 100 days ago, paid by card, completed 95 days ago, later archived.
 *          a2 registered 20 days ago, paid $49.95, completed 6 days ago (14 days to complete).
 *          a3 registered 40 days ago, marked paid 35 days ago, completed 29 days ago (11 days),
 *             then archived for a retake: it still happened.
 *          a4 registered 10 days ago, paid $45.00 9 days ago, in progress.
 *          a5 registered 5 days ago, unpaid.
 * Bravo:   b1 registered 70, completed 8 days ago (62 days); b6 registered 37, completed exactly
 *          7 days ago (30 days); b2, b3, b4, b5 completed 59, 61, 89 and 91 days ago.
 * Charlie: c1 registered 3 days 8 hours ago, marked paid, completed 1 day ago (2 1/3 days);
 *          c2 registered 3 days ago, unpaid, archived; c3 registered 2 days ago, paid $49.95,
 *          archived before finishing.
 * Delta:   no completion. d1 registered 45 days ago, paid 44 days ago, in progress; d2 registered
 *          31 days ago and d3 29 days ago, both unpaid.
 */
describe('admin dashboard', () => {
  let t: TestApp;
  const courts = {} as Record<'alpha' | 'bravo' | 'charlie' | 'delta', CreatedCourt>;

  /** A paid student of a court who registered `registeredDaysAgo` and completed `completedDaysAgo`. */
  async function completer(court: CreatedCourt, registeredDaysAgo: number, completedDaysAgo: number) {
    const student = await registerStudentAt(t, court.id, daysAgo(t, registeredDaysAgo));
    await recordPaymentAt(t.db, student.id, daysAgo(t, registeredDaysAgo), { method: 'card', amountCents: 4995 });
    await completeCourseAt(t, student.id, daysAgo(t, completedDaysAgo));
    return student;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    // Created out of name order, so the report's sorting is seen.
    courts.charlie = await createCourt(t.db, { name: 'Dashboard Court Charlie' });
    courts.alpha = await createCourt(t.db, { name: 'Dashboard Court Alpha' });
    courts.delta = await createCourt(t.db, { name: 'Dashboard Court Delta' });
    courts.bravo = await createCourt(t.db, { name: 'Dashboard Court Bravo' });
    const { alpha, bravo, charlie, delta } = courts;

    const a1 = await completer(alpha, 100, 95);
    await archiveStudent(t.db, a1.id, daysAgo(t, 50));
    await failDelivery(t.db, a1.id, 'student');
    const a2 = await completer(alpha, 20, 6);
    const a3 = await registerStudentAt(t, alpha.id, daysAgo(t, 40));
    await recordPaymentAt(t.db, a3.id, daysAgo(t, 35), { method: 'manual' });
    await completeCourseAt(t, a3.id, daysAgo(t, 29));
    await archiveStudent(t.db, a3.id, daysAgo(t, 28));
    const a4 = await registerStudentAt(t, alpha.id, daysAgo(t, 10));
    await recordPaymentAt(t.db, a4.id, daysAgo(t, 9), { method: 'card', amountCents: 4500 });
    await registerStudentAt(t, alpha.id, daysAgo(t, 5));

    const b1 = await completer(bravo, 70, 8);
    await failDelivery(t.db, b1.id, 'court');
    await completer(bravo, 37, 7);
    await completer(bravo, 65, 59);
    await completer(bravo, 70, 61);
    await completer(bravo, 95, 89);
    await completer(bravo, 100, 91);

    const c1 = await registerStudentAt(t, charlie.id, daysAgo(t, 3 + 8 / 24));
    await recordPaymentAt(t.db, c1.id, daysAgo(t, 3), { method: 'manual' });
    await completeCourseAt(t, c1.id, daysAgo(t, 1));
    const c2 = await registerStudentAt(t, charlie.id, daysAgo(t, 3));
    await archiveStudent(t.db, c2.id, daysAgo(t, 2));
    const c3 = await registerStudentAt(t, charlie.id, daysAgo(t, 2));
    await recordPaymentAt(t.db, c3.id, daysAgo(t, 2), { method: 'card', amountCents: 4995 });
    await archiveStudent(t.db, c3.id, daysAgo(t, 1));

    const d1 = await registerStudentAt(t, delta.id, daysAgo(t, 45));
    await recordPaymentAt(t.db, d1.id, daysAgo(t, 44), { method: 'card', amountCents: 4995 });
    await registerStudentAt(t, delta.id, daysAgo(t, 31));
    await registerStudentAt(t, delta.id, daysAgo(t, 29));

    // Final exams: two passes and a failure submitted in the window; a pass 31 days ago, an
    // attempt still open and a chapter quiz do not count.
    const exam = (studentId: number, submittedDaysAgo: number, passed: boolean) =>
      recordAttempt(t.db, {
        studentId,
        chapterId: 6,
        startedAt: new Date(daysAgo(t, submittedDaysAgo).getTime() - HOUR),
        submittedAt: daysAgo(t, submittedDaysAgo),
        passed,
      });
    await exam(c1.id, 1, true);
    await exam(a2.id, 6, true);
    await exam(b1.id, 8, false);
    await exam(a3.id, 31, true);
    await recordAttempt(t.db, { studentId: a4.id, chapterId: 6, startedAt: daysAgo(t, 2) });
    await recordAttempt(t.db, {
      studentId: a4.id,
      chapterId: 4,
      startedAt: daysAgo(t, 1),
      submittedAt: daysAgo(t, 1),
      passed: true,
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const valuesOf = (stats: Stat[]) => Object.fromEntries(stats.map((stat) => [stat.name, stat.value]));

  describe('GET /api/admin/stats', () => {
    it('counts the last 30 days for a full admin, in the order the page shows them, each with its unit', async () => {
      const client = await signedInStaff(t, 'admin');
      const response = await client.get('/api/admin/stats');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        // a2, a4, a5, c1, c2 (archived), c3 (archived), d3; not a3 (40 days) nor d2 (31 days)
        { name: 'registrations', value: 7, unit: 'count' },
        // a2 (card, at registration), a4 (card), c1 (manual), c3 (card, archived since)
        { name: 'payments', value: 4, unit: 'count' },
        // a2 $49.95 + a4 $45.00 + c3 $49.95; a manual payment has no amount
        { name: 'revenue', value: 14490, unit: 'cents' },
        // a2 (6 days), a3 (29 days, archived since), b1 (8), b6 (exactly 7), c1 (1)
        { name: 'completions', value: 5, unit: 'count' },
        // two passes out of three submitted finals
        { name: 'final_pass_rate', value: 66.7, unit: 'percent' },
        { name: 'certificates_issued', value: 5, unit: 'count' },
        // a4 and d1 (paid, not completed, not archived); c3 is archived
        { name: 'students_in_progress', value: 2, unit: 'count' },
        // a5 and d3; c2 is archived and d2 registered 31 days ago
        { name: 'unpaid_registrations', value: 2, unit: 'count' },
        // a1's own copy and b1's court copy
        { name: 'failed_deliveries', value: 2, unit: 'count' },
        // (14 + 11 + 62 + 30 + 2 1/3) / 5 = 23.87
        { name: 'average_days_to_complete', value: 23.9, unit: 'days' },
      ]);
    });

    it('gives the same figures to a clerk and a super_admin', async () => {
      const admin = (await (await signedInStaff(t, 'admin')).get('/api/admin/stats')).json<Stat[]>();
      for (const role of ['clerk', 'super_admin'] as const) {
        const response = await (await signedInStaff(t, role)).get('/api/admin/stats');
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual(admin);
      }
    });

    it('counts a registration made exactly 30 days ago and not one made a minute earlier', async () => {
      const start = daysAgo(t, 30);
      const onTheEdge = await registerStudentAt(t, courts.delta.id, start);
      const justBefore = await registerStudentAt(t, courts.delta.id, new Date(start.getTime() - 60_000));
      try {
        const stats = valuesOf((await (await signedInStaff(t, 'admin')).get('/api/admin/stats')).json<Stat[]>());
        expect(stats.registrations).toBe(8);
        expect(stats.unpaid_registrations).toBe(3);
      } finally {
        await t.db.delete(students).where(inArray(students.id, [onTheEdge.id, justBefore.id]));
      }
    });

    it('a year later shows no flows, "nothing to measure" for the rate and the average, and the states as they are', async () => {
      const present = t.clock.now();
      t.clock.set(new Date(present.getTime() + 365 * DAY));
      try {
        const stats = valuesOf((await (await signedInStaff(t, 'admin')).get('/api/admin/stats')).json<Stat[]>());
        expect(stats).toEqual({
          registrations: 0,
          payments: 0,
          revenue: 0,
          completions: 0,
          final_pass_rate: null,
          certificates_issued: 0,
          students_in_progress: 2,
          unpaid_registrations: 0,
          failed_deliveries: 2,
          average_days_to_complete: null,
        });
      } finally {
        t.clock.set(present);
      }
    });

    it('refuses a court-limited admin (spec 6: no dashboard stats), a student, and anyone not signed in', async () => {
      const courtAdmin = await signedInStaff(t, 'admin', courts.alpha.id);
      expect((await courtAdmin.get('/api/admin/stats')).statusCode).toBe(403);

      const student = await createStudent(t.db, { courtId: courts.alpha.id });
      await markStudentPaid(t.db, student.id, t.clock.now());
      const studentClient = apiClient(t.app, await signInStudent(t.app, student));
      expect((await studentClient.get('/api/admin/stats')).statusCode).toBe(403);

      expect((await t.app.inject({ method: 'GET', url: '/api/admin/stats' })).statusCode).toBe(401);
    });
  });

  describe('GET /api/admin/report', () => {
    const row = (court: CreatedCourt, counts: [number, number, number, number, number]): ReportRow => ({
      court_id: court.id,
      court_name: court.name,
      seven_day: counts[0],
      thirty_day: counts[1],
      sixty_day: counts[2],
      ninety_day: counts[3],
      total: counts[4],
    });

    it('lists every court with a completion by name, counting 7, 30, 60 and 90 days back and in total', async () => {
      const response = await (await signedInStaff(t, 'clerk')).get('/api/admin/report');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        // a2 (6 days) | a3 (29, archived) | - | - | a1 (95, archived)
        row(courts.alpha, [1, 2, 2, 2, 3]),
        // b6 (exactly 7) | b1 (8) | b2 (59) | b3 (61), b4 (89) | b5 (91); a completion 8 days ago
        // is out of the 7-day window, 61 days ago out of the 60-day one, 91 out of the 90-day one
        row(courts.bravo, [1, 2, 3, 5, 6]),
        row(courts.charlie, [1, 1, 1, 1, 1]),
      ]);
    });

    it('moves completions between windows as time passes: a day later the 6-day-old one is 7, the 7-day-old one 8', async () => {
      const present = t.clock.now();
      t.clock.advance(DAY);
      try {
        const rows = (await (await signedInStaff(t, 'admin')).get('/api/admin/report')).json<ReportRow[]>();
        expect(rows).toEqual([
          row(courts.alpha, [1, 2, 2, 2, 3]),
          // b6 now 8 days ago; b1 9; b2 60 (still in); b4 90 (still in)
          row(courts.bravo, [0, 2, 3, 5, 6]),
          row(courts.charlie, [1, 1, 1, 1, 1]),
        ]);
      } finally {
        t.clock.set(present);
      }
    });

    it("gives a court-limited admin only their own court's row", async () => {
      const response = await (await signedInStaff(t, 'admin', courts.bravo.id)).get('/api/admin/report');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([row(courts.bravo, [1, 2, 3, 5, 6])]);
    });

    it("gives a court-limited admin of a court without completions their court's row of zeros", async () => {
      const response = await (await signedInStaff(t, 'admin', courts.delta.id)).get('/api/admin/report');
      expect(response.json()).toEqual([row(courts.delta, [0, 0, 0, 0, 0])]);
    });

    it('refuses a student and anyone not signed in', async () => {
      const student = await createStudent(t.db, { courtId: courts.alpha.id });
      const studentClient = apiClient(t.app, await signInStudent(t.app, student));
      expect((await studentClient.get('/api/admin/report')).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: '/api/admin/report' })).statusCode).toBe(401);
    });
  });
});
