import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffAccount } from '@ts/contract';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { createCourt } from '../../testing/factories.ts';
import { auditEntries, type Client, newAccount, signedIn } from '../../testing/staff.ts';

/** Decision 063: whom a staff account is for (the school or a court) must agree with its court. */
describe("a staff account's scope", () => {
  let t: TestApp;
  let boss: Client;

  beforeAll(async () => {
    t = await buildTestApp();
    boss = (await signedIn(t, 'super_admin')).client;
  });
  afterAll(async () => {
    await t.close();
  });

  const emails = async () => (await boss.get('/api/admin/users')).json<StaffAccount[]>().map((row) => row.email);

  it("refuses a court's staff account without a court, and creates nothing", async () => {
    for (const role of ['clerk', 'admin']) {
      const input = newAccount({ role, court_id: null, staff_of: 'court' });
      const refused = await boss.post('/api/admin/users', input);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        error: {
          code: 'COURT_REQUIRED',
          message: "Please choose the court of a court's staff account.",
          requestId: expect.any(String) as string,
        },
      });
      expect(await emails()).not.toContain(input.email);
    }
  });

  it("refuses a school staff account limited to a court, and a court's super admin", async () => {
    const court = await createCourt(t.db);
    const school = newAccount({ role: 'clerk', court_id: court.id, staff_of: 'school' });
    const schoolAnswer = await boss.post('/api/admin/users', school);
    expect(schoolAnswer.statusCode).toBe(400);
    expect(schoolAnswer.json<{ error: { code: string } }>().error.code).toBe('SCHOOL_STAFF_ALL_COURTS');
    const superAdmin = newAccount({ role: 'super_admin', court_id: null, staff_of: 'court' });
    const superAnswer = await boss.post('/api/admin/users', superAdmin);
    expect(superAnswer.statusCode).toBe(400);
    expect(superAnswer.json<{ error: { code: string } }>().error.code).toBe('SUPER_ADMIN_ALL_COURTS');
    const listed = await emails();
    expect(listed).not.toContain(school.email);
    expect(listed).not.toContain(superAdmin.email);
  });

  it("creates a court's clerk limited to its court and a school clerk over every court", async () => {
    const court = await createCourt(t.db);
    const courtClerk = await boss.post('/api/admin/users', newAccount({ court_id: court.id, staff_of: 'court' }));
    expect(courtClerk.statusCode).toBe(201);
    expect(courtClerk.json<{ user: StaffAccount }>().user).toMatchObject({
      role: 'clerk',
      court_id: court.id,
      court_name: court.name,
    });
    const schoolClerk = await boss.post('/api/admin/users', newAccount({ court_id: null, staff_of: 'school' }));
    expect(schoolClerk.statusCode).toBe(201);
    expect(schoolClerk.json<{ user: StaffAccount }>().user).toMatchObject({ role: 'clerk', court_id: null });
  });

  it("refuses an edit that makes a court's clerk court-less, and keeps the account as it was", async () => {
    const court = await createCourt(t.db);
    const input = newAccount({ court_id: court.id, staff_of: 'court' });
    const { user } = (await boss.post('/api/admin/users', input)).json<{ user: StaffAccount }>();
    const url = `/api/admin/users/${String(user.id)}`;
    const edit = { email: input.email, name: input.name, role: 'clerk', disabled: false };
    const refused = await boss.put(url, { ...edit, court_id: null, staff_of: 'court' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('COURT_REQUIRED');
    const kept = (await boss.get('/api/admin/users')).json<StaffAccount[]>().find((row) => row.id === user.id);
    expect(kept).toMatchObject({ court_id: court.id, court_name: court.name });
    expect(await auditEntries(t, 'update_staff', user.id)).toEqual([]);
  });
});
