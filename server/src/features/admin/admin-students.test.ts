import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_STUDENTS_PAGE_SIZE, type AdminStudent, type AdminStudentRow, type StaffRole } from '@ts/contract';
import { quizAttempts, students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { buildRegistration, createCourt, createStudent, type CreatedCourt } from '../../testing/factories.ts';
import { signInStudent } from '../../testing/sign-in.ts';
import { signedInStaff } from '../../testing/course.ts';

const DAY = 24 * 3600_000;

interface StudentList {
  rows: AdminStudentRow[];
  total: number;
  page: number;
  pageSize: number;
}

describe('admin students: GET /api/admin/students and the detail', () => {
  let t: TestApp;
  let adminCookie: string;
  beforeAll(async () => {
    t = await buildTestApp();
    adminCookie = (await signedInStaff(t, 'admin')).cookie;
  });
  afterAll(async () => {
    await t.close();
  });

  async function cookieFor(role: StaffRole, courtId: number | null = null): Promise<string> {
    return (await signedInStaff(t, role, courtId)).cookie;
  }
  function list(query: Record<string, string | number>, cookie = adminCookie): Promise<LightMyRequestResponse> {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
    return t.app.inject({ method: 'GET', url: `/api/admin/students?${search.toString()}`, headers: { cookie } });
  }
  async function listIds(query: Record<string, string | number>, cookie = adminCookie): Promise<number[]> {
    const response = await list(query, cookie);
    expect(response.statusCode).toBe(200);
    return response.json<StudentList>().rows.map((row) => row.id);
  }

  /** A court of its own with one student in it, so a filter by that court finds only that student. */
  async function studentInOwnCourt(
    overrides: Partial<typeof students.$inferInsert> = {},
  ): Promise<{ court: CreatedCourt; id: number }> {
    const court = await createCourt(t.db);
    const student = await createStudent(t.db, { courtId: court.id, ...overrides });
    return { court, id: student.id };
  }

  describe('search (spec 2: name, email and licence number)', () => {
    it('answers the row as the table shows it: id, names, email, licence, court, dates', async () => {
      const created = new Date('2026-03-05T18:30:00Z');
      const { court, id } = await studentInOwnCourt({
        firstName: 'Beatriz',
        lastName: 'Quintanilla',
        email: 'bq.rowshape@example.com',
        dlNumber: 'Q7654321',
        createdAt: created,
        paymentAt: new Date('2026-03-06T10:00:00Z'),
      });

      const response = await list({ courtId: court.id });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        rows: [
          {
            id,
            first_name: 'Beatriz',
            last_name: 'Quintanilla',
            email: 'bq.rowshape@example.com',
            dl_number: 'Q7654321',
            court: court.id,
            court_name: court.name,
            payment_at: '2026-03-06T10:00:00.000Z',
            completed_at: null,
            created_at_formatted: 'March 5, 2026',
            created_at: '2026-03-05T18:30:00.000Z',
          },
        ],
        total: 1,
        page: 1,
        pageSize: ADMIN_STUDENTS_PAGE_SIZE,
      });
    });

    describe('by each field, in part and in any case', () => {
      let zebedia: number;
      beforeAll(async () => {
        ({ id: zebedia } = await studentInOwnCourt({
          firstName: 'Zebedia',
          lastName: 'Thumblethwaite',
          email: 'zt.search@example.com',
          dlNumber: 'Z99887766',
        }));
      });

      it.each([
        ['part of the first name, in another case', 'ZEBEDI'],
        ['part of the last name, in another case', 'mblethw'],
        ['"first last"', 'zebedia thumblethwaite'],
        ['"first last" with extra spaces', '  Zebedia   Thumbleth '],
        ['part of the email', 'ZT.SEARCH@'],
        ['part of the licence number, lower-cased', 'z998877'],
        ['the licence number typed with dashes and spaces', 'z99-88 77-66'],
      ])('finds a student by %s', async (_, searchTerm) => {
        expect(await listIds({ searchTerm })).toEqual([zebedia]);
      });
    });

    it('finds nobody for a term that matches no field', async () => {
      const response = await list({ searchTerm: 'no-such-student-anywhere' });
      expect(response.json()).toMatchObject({ rows: [], total: 0, page: 1 });
    });

    it('does not match across the first and last name except as "first last"', async () => {
      const { id } = await studentInOwnCourt({ firstName: 'Oswin', lastName: 'Pettigrew' });
      expect(await listIds({ searchTerm: 'Oswin Pettigrew' })).toContain(id);
      expect(await listIds({ searchTerm: 'Pettigrew Oswin' })).not.toContain(id);
    });

    it('finds a name whatever its accents, case, hyphens or apostrophes (decision 064)', async () => {
      const { id } = await studentInOwnCourt({ firstName: 'María', lastName: "Hernández-O'Neill" });
      for (const searchTerm of ['hernandez', 'HERNÁNDEZ', 'oneill', 'Hernandez ONeill', 'maria hernandez']) {
        expect(await listIds({ searchTerm }), searchTerm).toContain(id);
      }
      expect(await listIds({ searchTerm: 'hernandes' })).not.toContain(id);
    });

    it('takes % and _ in the term literally, not as wildcards', async () => {
      const literal = await studentInOwnCourt({ lastName: 'Per%cent_Under', email: 'literal.like@example.com' });
      const other = await studentInOwnCourt({ lastName: 'PerXcentYUnder', email: 'other.like@example.com' });

      expect(await listIds({ searchTerm: 'per%cent_under' })).toEqual([literal.id]);
      expect(await listIds({ searchTerm: '%' })).toEqual([literal.id]);
      expect(await listIds({ searchTerm: 'per_cent' })).toEqual([]);
      expect(await listIds({ searchTerm: 'perxcentyunder' })).toEqual([other.id]);
    });

    it('takes a backslash in the term literally', async () => {
      const { id } = await studentInOwnCourt({ lastName: 'Back\\slash' });
      expect(await listIds({ searchTerm: 'k\\s' })).toEqual([id]);
    });

    it('treats a blank term as no search', async () => {
      const { court, id } = await studentInOwnCourt();
      expect(await listIds({ searchTerm: '   ', courtId: court.id })).toEqual([id]);
    });

    it('does not let a term of dashes and spaces match every licence number', async () => {
      const { court } = await studentInOwnCourt();
      expect(await listIds({ searchTerm: ' - ', courtId: court.id })).toEqual([]);
    });
  });

  describe('court filter and court scope (decision 011)', () => {
    it('lists only the students of the court asked for', async () => {
      const a = await studentInOwnCourt();
      const b = await createStudent(t.db, { courtId: (await createCourt(t.db)).id });
      const ids = await listIds({ courtId: a.court.id });
      expect(ids).toEqual([a.id]);
      expect(ids).not.toContain(b.id);
    });

    it('lists every court’s students without a court filter', async () => {
      const a = await studentInOwnCourt({ lastName: 'Courtwide' });
      const b = await studentInOwnCourt({ lastName: 'Courtwide' });
      expect(await listIds({ searchTerm: 'Courtwide' })).toEqual(expect.arrayContaining([a.id, b.id]));
    });

    it('shows a court-limited admin only their own court, with or without a filter', async () => {
      const own = await studentInOwnCourt({ lastName: 'Scopetest' });
      await studentInOwnCourt({ lastName: 'Scopetest' });
      const cookie = await cookieFor('admin', own.court.id);

      expect(await listIds({ searchTerm: 'Scopetest' }, cookie)).toEqual([own.id]);
      expect(await listIds({}, cookie)).toEqual([own.id]);
      expect(await listIds({ courtId: own.court.id }, cookie)).toEqual([own.id]);
    });

    it('gives a court-limited admin who asks for another court an empty list, not an error', async () => {
      const own = await studentInOwnCourt();
      const other = await studentInOwnCourt();
      const cookie = await cookieFor('admin', own.court.id);

      const response = await list({ courtId: other.court.id }, cookie);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ rows: [], total: 0 });
    });

    it.each(['clerk', 'admin', 'super_admin'] as const)('lets a %s search every court', async (role) => {
      const a = await studentInOwnCourt({ lastName: `Everycourt${role}` });
      const b = await studentInOwnCourt({ lastName: `Everycourt${role}` });
      const ids = await listIds({ searchTerm: `Everycourt${role}` }, await cookieFor(role));
      expect(ids.sort()).toEqual([a.id, b.id].sort());
    });
  });

  describe('which enrolments, in which order, a page at a time', () => {
    it('leaves archived enrolments out', async () => {
      const court = await createCourt(t.db);
      const active = await createStudent(t.db, { courtId: court.id });
      await createStudent(t.db, { courtId: court.id, archivedAt: new Date('2026-10-01T00:00:00Z') });
      const response = await list({ courtId: court.id });
      expect(response.json()).toMatchObject({ rows: [{ id: active.id }], total: 1 });
    });

    it('lists the newest registrations first, and by id among those registered at the same moment', async () => {
      const court = await createCourt(t.db);
      const at = (days: number) => new Date(Date.UTC(2026, 0, 1) + days * DAY);
      const oldest = await createStudent(t.db, { courtId: court.id, createdAt: at(0) });
      const newest = await createStudent(t.db, { courtId: court.id, createdAt: at(20) });
      const sameMomentFirst = await createStudent(t.db, { courtId: court.id, createdAt: at(10) });
      const sameMomentSecond = await createStudent(t.db, { courtId: court.id, createdAt: at(10) });

      expect(await listIds({ courtId: court.id })).toEqual([
        newest.id,
        sameMomentSecond.id,
        sameMomentFirst.id,
        oldest.id,
      ]);
    });

    describe('sorting (decision 021)', () => {
      it('sorts by last then first name, either way, without regard to case', async () => {
        const countyCourt = await createCourt(t.db);
        const named = async (firstName: string, lastName: string) =>
          (await createStudent(t.db, { courtId: countyCourt.id, firstName, lastName })).id;
        const zed = await named('Ann', 'zed');
        const adamsBo = await named('Bo', 'Adams');
        const adamsAl = await named('al', 'adams');
        expect(await listIds({ courtId: countyCourt.id, sort: 'name', order: 'asc' })).toEqual([adamsAl, adamsBo, zed]);
        expect(await listIds({ courtId: countyCourt.id, sort: 'name', order: 'desc' })).toEqual([
          zed,
          adamsBo,
          adamsAl,
        ]);
      });

      it('sorts by court name, by registration, and by completion with the unfinished last either way', async () => {
        const countyId = (await createCourt(t.db)).countyId;
        const alpha = await createCourt(t.db, { countyId, name: `Alpha Sort Court ${String(countyId)}` });
        const beta = await createCourt(t.db, { countyId, name: `Beta Sort Court ${String(countyId)}` });
        const at = (days: number) => new Date(Date.UTC(2026, 5, 1) + days * DAY);
        const term = `sortcase${String(countyId)}`;
        const make = (courtId: number, created: number, completed: number | null) =>
          createStudent(t.db, {
            courtId,
            lastName: term,
            createdAt: at(created),
            completedAt: completed === null ? null : at(completed),
          });
        const a = await make(beta.id, 0, 5);
        const b = await make(alpha.id, 1, null);
        const c = await make(alpha.id, 2, 3);
        const ids = (sort: string, order: string) => listIds({ searchTerm: term, sort, order });
        expect(await ids('court', 'asc')).toEqual([c.id, b.id, a.id]);
        expect(await ids('court', 'desc')).toEqual([a.id, c.id, b.id]);
        expect(await ids('registered', 'asc')).toEqual([a.id, b.id, c.id]);
        expect(await ids('completed', 'asc')).toEqual([c.id, a.id, b.id]);
        expect(await ids('completed', 'desc')).toEqual([a.id, c.id, b.id]);
      });

      it('refuses a sort it does not know with a 400', async () => {
        expect((await list({ sort: 'password' })).statusCode).toBe(400);
        expect((await list({ sort: 'name', order: 'sideways' })).statusCode).toBe(400);
      });
    });

    it('pages by 20: with 25 matches page 1 has 20, page 2 the last 5, page 3 none, all with the total 25', async () => {
      const court = await createCourt(t.db);
      const ids: number[] = [];
      for (let n = 0; n < 25; n += 1) {
        const student = await createStudent(t.db, {
          courtId: court.id,
          createdAt: new Date(Date.UTC(2026, 1, 1) + n * DAY),
        });
        ids.unshift(student.id);
      }

      const first = (await list({ courtId: court.id })).json<StudentList>();
      const second = (await list({ courtId: court.id, page: 2 })).json<StudentList>();
      const third = (await list({ courtId: court.id, page: 3 })).json<StudentList>();

      expect(first).toMatchObject({ total: 25, page: 1, pageSize: 20 });
      expect(first.rows.map((row) => row.id)).toEqual(ids.slice(0, 20));
      expect(second).toMatchObject({ total: 25, page: 2, pageSize: 20 });
      expect(second.rows.map((row) => row.id)).toEqual(ids.slice(20));
      expect(third).toMatchObject({ rows: [], total: 25, page: 3 });
    });

    it('shows the completion date when the course is complete', async () => {
      const { court } = await studentInOwnCourt({ completedAt: new Date('2026-04-01T12:00:00Z') });
      const [row] = (await list({ courtId: court.id })).json<StudentList>().rows;
      expect(row?.completed_at).toBe('2026-04-01T12:00:00.000Z');
    });
  });

  describe('validation and access', () => {
    it.each([
      ['page 0', { page: 0 }],
      ['page -1', { page: -1 }],
      ['a page that is not a number', { page: 'two' }],
      ['a court id that is not a number', { courtId: 'abc' }],
      ['a court id of 0', { courtId: 0 }],
      ['a search term over 100 characters', { searchTerm: 'x'.repeat(101) }],
    ])('refuses %s with a 400', async (_, query) => {
      const response = await list(query);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    });

    it('answers 401 without a session', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/admin/students' });
      expect(response.statusCode).toBe(401);
    });

    it('answers 403 to a signed-in student', async () => {
      const student = await createStudent(t.db);
      const response = await list({}, await signInStudent(t.app, student));
      expect(response.statusCode).toBe(403);
    });
  });

  describe('GET /api/admin/students/:id: attempts and who enrolled the student', () => {
    const detailOf = async (id: number, cookie = adminCookie) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/admin/students/${String(id)}`,
        headers: { cookie },
      });
      expect(response.statusCode).toBe(200);
      return response.json<AdminStudent>();
    };

    it('lists the submitted quiz attempts per chapter, oldest first, with score and question count', async () => {
      const student = await createStudent(t.db);
      const tenQuestions = Array.from({ length: 10 }, (_, n) => n + 1);
      const twentyQuestions = Array.from({ length: 20 }, (_, n) => n + 1);
      const at = (hours: number) => new Date(Date.UTC(2026, 5, 1, hours));
      await t.db.insert(quizAttempts).values([
        { studentId: student.id, chapterId: 1, questionIds: tenQuestions, submittedAt: at(2), score: 8, passed: true },
        { studentId: student.id, chapterId: 1, questionIds: tenQuestions, submittedAt: at(1), score: 5, passed: false },
        // Drawn but never submitted: not an attempt the detail shows.
        { studentId: student.id, chapterId: 2, questionIds: tenQuestions },
        {
          studentId: student.id,
          chapterId: 6,
          questionIds: twentyQuestions,
          submittedAt: at(5),
          score: 15,
          passed: true,
        },
      ]);

      const detail = await detailOf(student.id);

      expect(detail.attempts).toEqual([
        { chapter_id: 1, submitted_at: at(1).toISOString(), score: 5, passed: false, total: 10 },
        { chapter_id: 1, submitted_at: at(2).toISOString(), score: 8, passed: true, total: 10 },
        { chapter_id: 6, submitted_at: at(5).toISOString(), score: 15, passed: true, total: 20 },
      ]);
    });

    it("dates the registration and the payment by the school's calendar, and the birth date as the day it is", async () => {
      expect(t.config.schoolTimeZone).toBe('America/Los_Angeles');
      // 7 pm and 8 pm Pacific on March 5: already March 6 in UTC.
      const student = await createStudent(t.db, {
        createdAt: new Date('2026-03-06T03:00:00Z'),
        paymentAt: new Date('2026-03-06T04:00:00Z'),
        dob: '1990-07-04',
      });

      const detail = await detailOf(student.id);
      const rows = (await list({ searchTerm: student.dlNumber })).json<StudentList>().rows;

      expect(detail).toMatchObject({
        created_at_formatted: 'March 5, 2026',
        payment_at_formatted: 'March 5, 2026',
        dob_formatted: 'July 4, 1990',
      });
      expect(rows.map((row) => row.created_at_formatted)).toEqual(['March 5, 2026']);
    });

    it('shows no attempts and no enrolling staff member for a student who registered themself', async () => {
      const student = await createStudent(t.db);
      expect(await detailOf(student.id)).toMatchObject({ attempts: [], enrolled_by: null });
    });

    it('names the admin who enrolled the student by hand, and the manual payment they recorded', async () => {
      const { member, cookie } = await signedInStaff(t, 'admin');
      const enrolled = await t.app.inject({
        method: 'POST',
        url: '/api/register/student',
        payload: { ...buildRegistration(), backdoor: true },
        headers: { cookie },
      });
      expect(enrolled.statusCode).toBe(201);
      const { studentId } = enrolled.json<{ studentId: number }>();

      const detail = await detailOf(studentId, await cookieFor('clerk'));

      // createStaff names staffN "Staff Member N".
      const name = member.username.replace('staff', 'Staff Member ');
      expect(detail.enrolled_by).toBe(name);
      expect(detail.payment_at).toBe(t.clock.now().toISOString());
      expect(detail.payments).toEqual([
        {
          method: 'manual',
          manual_method: null,
          amount_cents: t.config.coursePriceCents,
          recorded_by: name,
          created_at: t.clock.now().toISOString(),
        },
      ]);
    });
  });
});
