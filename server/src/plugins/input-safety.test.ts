import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { buildRegistration, createStaff, createStudent, markStudentPaid } from '../testing/factories.ts';
import { countRows } from '../testing/rows.ts';
import { signInStaff, signInStudent } from '../testing/sign-in.ts';

/** The distinct field names a 400 names. */
function fieldsNamed(response: { json: () => { error: { fields?: { field: string }[] } } }): string[] {
  return [...new Set((response.json().error.fields ?? []).map((issue) => issue.field))];
}

/** Decision 016: numbers out of range, NUL bytes, hidden characters, and who is asked first. */
describe('input the database cannot hold', () => {
  let t: TestApp;
  let studentCookie: string;
  let studentId: number;
  let adminCookie: string;

  beforeAll(async () => {
    t = await buildTestApp();
    const student = await createStudent(t.db);
    await markStudentPaid(t.db, student.id);
    studentId = student.id;
    studentCookie = await signInStudent(t.app, student);
    const admin = await createStaff(t.db, { role: 'super_admin' });
    adminCookie = await signInStaff(t.app, admin);
  });
  afterAll(async () => {
    await t.close();
  });

  const OUT_OF_RANGE = ['99999999999', '2147483648', '0xffffffff', '-1', '0', '1e99', '1.5'];

  it.each(OUT_OF_RANGE)('answers %s as a public query number with a 400 naming the field', async (value) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/public/courts?countyId=${value}` });
    expect(response.statusCode).toBe(400);
    expect(fieldsNamed(response)).toEqual(['countyId']);
  });

  it.each(OUT_OF_RANGE)("answers %s as a student's chapter id with a 400 naming the field", async (value) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/students/${String(studentId)}/quizStatus/${value}`,
      headers: { cookie: studentCookie },
    });
    expect(response.statusCode).toBe(400);
    expect(fieldsNamed(response)).toEqual(['chapterId']);
  });

  it.each(OUT_OF_RANGE)('answers %s as a staff path id with a 400 naming the field', async (value) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/admin/students/${value}`,
      headers: { cookie: adminCookie },
    });
    expect(response.statusCode).toBe(400);
    expect(fieldsNamed(response)).toEqual(['id']);
  });

  /** Ways of writing a number that JavaScript reads but a path or query id never is written in. */
  const NOT_PLAIN_DIGITS = ['0x1f', '1e3', ' 12', '+12', '012', '12.0'];

  it.each(NOT_PLAIN_DIGITS)('answers %j as a staff path id with the same 400 as the id 0', async (value) => {
    const refused = (id: string) =>
      t.app.inject({ method: 'GET', url: `/api/admin/students/${id}`, headers: { cookie: adminCookie } });
    const response = await refused(encodeURIComponent(value));
    expect(response.statusCode).toBe(400);
    // The same but for each request's own id (decision 060).
    const withoutId = ({ error: { requestId: _requestId, ...error } }: { error: Record<string, unknown> }) => ({
      error,
    });
    expect(withoutId(response.json())).toEqual(withoutId((await refused('0')).json()));
  });

  it.each(NOT_PLAIN_DIGITS)('answers %j as a public query number with a 400 naming the field', async (value) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/public/courts?countyId=${encodeURIComponent(value)}`,
    });
    expect(response.statusCode).toBe(400);
    expect(fieldsNamed(response)).toEqual(['countyId']);
  });

  it('reads the largest PostgreSQL integer as a path id, and answers that no such student exists', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/students/2147483647',
      headers: { cookie: adminCookie },
    });
    expect(response.statusCode).toBe(404);
  });

  it('answers an id beyond PostgreSQL integers in a body with a 400 and records nothing', async () => {
    const before = await countRows(t.db, 'module_completions');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/students/moduleComplete',
      headers: { cookie: studentCookie },
      payload: { studentId, moduleId: 2147483648 },
    });
    expect(response.statusCode).toBe(400);
    expect(fieldsNamed(response)).toEqual(['moduleId']);
    expect(await countRows(t.db, 'module_completions')).toBe(before);
  });

  it('answers a NUL byte in a registration field with a 400 naming it, and registers no one', async () => {
    const before = await countRows(t.db, 'students');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/register/student',
      payload: buildRegistration({ address: '12 Oak\u0000 Avenue' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [{ field: 'address', message: 'must not contain a NUL character' }],
    });
    expect(await countRows(t.db, 'students')).toBe(before);
  });

  it('answers a NUL byte in a text that no schema pattern would catch (a password) with a 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/admin',
      payload: { username: 'admin', password: 'pass\u0000word' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual([{ field: 'password', message: 'must not contain a NUL character' }]);
  });

  it('answers a NUL byte in a path value and in a query value with a 400', async () => {
    const inPath = await t.app.inject({ method: 'GET', url: '/api/public/verify/2026%00-1' });
    expect(inPath.statusCode).toBe(400);
    const inQuery = await t.app.inject({
      method: 'GET',
      url: '/api/admin/students?searchTerm=Riv%00era',
      headers: { cookie: adminCookie },
    });
    expect(inQuery.statusCode).toBe(400);
    expect(inQuery.json().error.fields).toEqual([expect.objectContaining({ field: 'searchTerm' })]);
  });

  it('answers a NUL byte in a JSON key with a 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/student',
      headers: { 'content-type': 'application/json' },
      payload: '{"last_name":"Rivera","dl_number":"S1","x\\u0000":1}',
    });
    expect(response.statusCode).toBe(400);
  });

  it('answers a lone surrogate in any text with a 400, and accepts a real emoji', async () => {
    const lone = await t.app.inject({
      method: 'POST',
      url: '/api/login/admin',
      payload: { username: 'admin\ud800', password: 'whatever' },
    });
    expect(lone.statusCode).toBe(400);
    expect(lone.json().error.fields).toEqual([{ field: 'username', message: 'must be valid Unicode text' }]);
    const emoji = await t.app.inject({
      method: 'POST',
      url: '/api/login/admin',
      payload: { username: 'admin😀', password: 'whatever' },
    });
    expect(emoji.statusCode).toBe(401);
  });

  it('answers a body nested thousands deep with a 400, not a stack overflow', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/register/student',
      headers: { 'content-type': 'application/json' },
      payload: `{"first_name":${deep}}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual([expect.objectContaining({ message: 'is nested too deeply' })]);
  });

  it.each([
    ['a right-to-left override', 'Smith\u202e'],
    ['a left-to-right isolate', '\u2066Smith'],
    ['a zero-width space', 'Sm\u200bith'],
    ['a C1 control', 'Smith\u0085'],
    ['a tab', 'Sm\tith'],
  ])('refuses a last name holding %s at registration', async (_what, lastName) => {
    const before = await countRows(t.db, 'students');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/register/student',
      payload: buildRegistration({ last_name: lastName }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual([
      { field: 'last_name', message: 'must not contain control or invisible characters' },
    ]);
    expect(await countRows(t.db, 'students')).toBe(before);
  });

  it.each(['first_name', 'address', 'city'] as const)('refuses a %s holding a bidi override', async (field) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/register/student',
      payload: buildRegistration({ [field]: 'Main\u202eStreet' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual([expect.objectContaining({ field })]);
  });

  it('accepts names in any alphabet, with accents, apostrophes and hyphens', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/register/student',
      payload: buildRegistration({ first_name: 'Łucja-Zoë', last_name: "O'Brien Núñez", city: 'São Paulo' }),
    });
    expect(response.statusCode).toBe(201);
  });

  it("refuses a staff member's name holding a zero-width joiner", async () => {
    const before = await countRows(t.db, 'staff');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: adminCookie },
      payload: {
        email: 'new.clerk@school.example',
        name: 'Ann\u200d Lee',
        role: 'clerk',
        court_id: null,
        username: 'annlee',
      },
    });
    expect(response.statusCode).toBe(400);
    expect(fieldsNamed(response)).toEqual(['name']);
    expect(await countRows(t.db, 'staff')).toBe(before);
  });
});

describe('who is asked before what is sent', () => {
  let t: TestApp;
  let studentCookie: string;
  let clerkCookie: string;

  beforeAll(async () => {
    t = await buildTestApp();
    const student = await createStudent(t.db);
    await markStudentPaid(t.db, student.id);
    studentCookie = await signInStudent(t.app, student);
    const clerk = await createStaff(t.db, { role: 'clerk' });
    clerkCookie = await signInStaff(t.app, clerk);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers an anonymous staff call with no body with 401, not a list of fields', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/admin/markPaid/3' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
    expect(response.json().error.fields).toBeUndefined();
  });

  it('answers an anonymous staff call with a malformed body and an out-of-range id with 401', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { 'content-type': 'application/json' },
      payload: '{"role": ',
    });
    expect(response.statusCode).toBe(401);
    const outOfRange = await t.app.inject({ method: 'GET', url: '/api/admin/students/99999999999' });
    expect(outOfRange.statusCode).toBe(401);
  });

  it('answers a student calling a staff route with 403 whatever the body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: studentCookie },
      payload: { role: 'nonsense' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('answers a clerk calling a super_admin route with 403 whatever the body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: clerkCookie },
      payload: { email: 42 },
    });
    expect(response.statusCode).toBe(403);
  });

  it('answers an anonymous student call with a NUL byte with 401, not 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/students/moduleComplete',
      payload: { studentId: '1\u0000', moduleId: 'x' },
    });
    expect(response.statusCode).toBe(401);
  });
});
