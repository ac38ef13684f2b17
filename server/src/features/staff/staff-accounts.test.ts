import os from 'node:os';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SET_PASSWORD_LINK_HOURS, type StaffAccount } from '@ts/contract';
import { staff, staffPasswordTokens } from '../../db/schema.ts';
import { createMailer } from '../../platform/mail/mailer.ts';
import { hashToken } from '../../platform/tokens.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import {
  createCourt,
  createStaff,
  createStudent,
  markStudentPaid,
  type CreatedStaff,
} from '../../testing/factories.ts';
import { signInStaff, signInStudent } from '../../testing/sign-in.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server.ts';
import { updateStaffAccount } from './staff-accounts.service.ts';
import {
  type Client,
  clientOf,
  signedIn,
  signIn,
  tokenOf,
  newAccount,
  auditEntries,
  expectNoSecrets,
} from '../../testing/staff.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('staff accounts', () => {
  let t: TestApp;
  let smtp: SmtpTestServer;
  let boss: { member: CreatedStaff; cookie: string; client: Client };

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'school@school.example',
      outboxDir: path.join(os.tmpdir(), 'ts-never-written'),
    });
    t = await buildTestApp({ mailer });
    const member = await createStaff(t.db, { role: 'super_admin' });
    boss = { member, cookie: '', client: clientOf(t, null) };
  });
  // A fresh session per test: some tests move the clock past a staff session's 8 hours.
  beforeEach(async () => {
    boss.cookie = await signInStaff(t.app, boss.member);
    boss.client = clientOf(t, boss.cookie);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  async function createAccount(overrides: Record<string, unknown> = {}) {
    const input = newAccount(overrides);
    const response = await boss.client.post('/api/admin/users', input);
    expect(response.statusCode, response.body).toBe(201);
    const answer = response.json<{
      user: StaffAccount;
      link: { setPasswordUrl: string; expires_at: string; emailed: boolean };
    }>();
    return { input, ...answer, token: tokenOf(answer.link.setPasswordUrl) };
  }

  describe('who may manage staff accounts (decision 011)', () => {
    it('lets only a super_admin reach /api/admin/users*: 403 for admin, clerk, court-limited admin and clerk and student, 401 anonymous (4 routes x 6 callers)', async () => {
      const target = await createStaff(t.db, { role: 'clerk' });
      const court = await createCourt(t.db);
      const student = await createStudent(t.db);
      await markStudentPaid(t.db, student.id);
      const callers: [string, Client, number][] = [
        ['admin', (await signedIn(t, 'admin')).client, 403],
        ['clerk', (await signedIn(t, 'clerk')).client, 403],
        ['court_admin', (await signedIn(t, 'admin', court.id)).client, 403],
        ['court_clerk', (await signedIn(t, 'clerk', court.id)).client, 403],
        ['student', clientOf(t, await signInStudent(t.app, student)), 403],
        ['anonymous', clientOf(t, null), 401],
      ];
      const id = String(target.id);
      const calls: [string, (client: Client) => Promise<LightMyRequestResponse>][] = [
        ['GET /api/admin/users', (client) => client.get('/api/admin/users')],
        ['POST /api/admin/users', (client) => client.post('/api/admin/users', newAccount())],
        [
          'PUT /api/admin/users/:id',
          (client) =>
            client.put(`/api/admin/users/${id}`, {
              email: target.email,
              name: 'Renamed',
              role: 'super_admin',
              court_id: null,
              disabled: false,
            }),
        ],
        [
          'POST /api/admin/users/:id/set-password-link',
          (client) => client.post(`/api/admin/users/${id}/set-password-link`),
        ],
      ];
      const cells: string[] = [];
      for (const [who, client, expected] of callers) {
        for (const [route, call] of calls) {
          cells.push(`${route} as ${who}: ${String((await call(client)).statusCode)} (want ${String(expected)})`);
          expect(cells.at(-1)).toMatch(/: (\d+) \(want \1\)$/);
        }
      }
      expect(cells).toHaveLength(24);
      const [unchanged] = await t.db.select().from(staff).where(eq(staff.id, target.id));
      expect(unchanged?.role).toBe('clerk');
      expect(await auditEntries(t, 'issue_set_password_link', target.id)).toEqual([]);
    });
  });

  describe('staff accounts (/admin/users)', () => {
    it('lists every account, disabled ones too, by name, with the court name and whether a password is set', async () => {
      const court = await createCourt(t.db);
      const limited = await createAccount({ name: 'Aaron Court-Limited', role: 'admin', court_id: court.id });
      const disabled = await createStaff(t.db, { role: 'clerk', disabledAt: t.clock.now() });

      const response = await boss.client.get('/api/admin/users');
      expect(response.statusCode).toBe(200);
      const accounts = response.json<StaffAccount[]>();
      const names = accounts.map((account) => account.name);
      expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(accounts.find((account) => account.id === limited.user.id)).toEqual({
        id: limited.user.id,
        username: limited.input.username,
        email: limited.input.email,
        name: 'Aaron Court-Limited',
        role: 'admin',
        court_id: court.id,
        court_name: court.name,
        created_at: t.clock.now().toISOString(),
        disabled_at: null,
        password_set: false,
      });
      expect(accounts.find((account) => account.id === disabled.id)).toMatchObject({
        disabled_at: t.clock.now().toISOString(),
        password_set: true,
        court_name: null,
      });
      expect(response.body).not.toContain('$argon2');
    });

    it('creates an account that cannot sign in yet, with a one-time link shown once and emailed without any password', async () => {
      const before = smtp.messages.length;
      const created = await createAccount({ username: 'Jane.Clerk', email: 'jane.clerk@school.example' });

      expect(created.user).toMatchObject({
        username: 'Jane.Clerk',
        email: 'jane.clerk@school.example',
        role: 'clerk',
        court_id: null,
        disabled_at: null,
        password_set: false,
      });
      expect(created.link.setPasswordUrl).toBe(`${t.config.publicUrl}/set-password#token=${created.token}`);
      expect(created.link.expires_at).toBe(
        new Date(t.clock.now().getTime() + SET_PASSWORD_LINK_HOURS * HOUR).toISOString(),
      );
      expect(created.link.emailed).toBe(true);

      // Only the token's hash is kept.
      const tokens = await t.db
        .select()
        .from(staffPasswordTokens)
        .where(eq(staffPasswordTokens.staffId, created.user.id));
      expect(tokens).toEqual([
        expect.objectContaining({
          tokenHash: hashToken(created.token),
          createdByStaffId: boss.member.id,
          usedAt: null,
        }),
      ]);
      expect(JSON.stringify(tokens)).not.toContain(created.token);

      const mails = smtp.messages.slice(before);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.to).toEqual(['jane.clerk@school.example']);
      expect(mail.subject).toBe(`Set your password for ${t.config.schoolName}`);
      expect(mail.text).toContain(created.link.setPasswordUrl);
      expect(mail.text).toContain('Jane.Clerk');
      expect(mail.text).not.toMatch(/password\s*(is|:)/i);
      // The HTML part (decision 057) carries the same link, and no password either.
      expect(mail.html).toContain(`href="${created.link.setPasswordUrl}"`);
      expect(mail.html).not.toMatch(/password\s*(is|:)/i);
      expect(mail.attachments).toEqual([]);

      // No password works before one is chosen, not even the token.
      expect((await signIn(t, 'jane.clerk', created.token)).statusCode).toBe(401);

      const entries = await auditEntries(t, 'create_staff', created.user.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ staffId: boss.member.id, before: null, after: created.user });
      expectNoSecrets(entries, created.token);
    });

    it('refuses a username or an email already taken, whatever its case, with STAFF_EXISTS', async () => {
      const existing = await createStaff(t.db, { role: 'clerk' });
      for (const clash of [{ username: existing.username.toUpperCase() }, { email: existing.email.toUpperCase() }]) {
        const response = await boss.client.post('/api/admin/users', newAccount(clash));
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({
          error: {
            code: 'STAFF_EXISTS',
            message: 'A staff member with this username or email already exists.',
            requestId: expect.any(String) as string,
          },
        });
      }
      const other = await createAccount();
      const update = await boss.client.put(`/api/admin/users/${String(other.user.id)}`, {
        email: existing.email,
        name: other.input.name,
        role: 'clerk',
        court_id: null,
        disabled: false,
      });
      expect(update.statusCode).toBe(409);
      expect(update.json<{ error: { code: string } }>().error.code).toBe('STAFF_EXISTS');
    });

    it('limits an admin or a clerk to a court, never a super_admin, and only to a court that exists', async () => {
      const court = await createCourt(t.db);
      const refusedInputs = [
        newAccount({ role: 'super_admin', court_id: court.id }),
        newAccount({ role: 'admin', court_id: 999_999 }),
        newAccount({ role: 'clerk', court_id: 999_999 }),
      ];
      const refused = [];
      for (const input of refusedInputs) refused.push(await boss.client.post('/api/admin/users', input));
      expect(refused.map((response) => response.statusCode)).toEqual([400, 400, 400]);
      expect(refused[0]?.json()).toEqual({
        error: {
          code: 'SUPER_ADMIN_ALL_COURTS',
          message: 'A super admin cannot be limited to one court.',
          requestId: expect.any(String) as string,
        },
      });
      const emails = (await boss.client.get('/api/admin/users')).json<StaffAccount[]>().map((row) => row.email);
      for (const input of refusedInputs) expect(emails).not.toContain(input.email);

      const limited = await createAccount({ role: 'admin', court_id: court.id });
      expect(limited.user).toMatchObject({ role: 'admin', court_id: court.id, court_name: court.name });
      // A court's own clerk: created limited, and the audit log says which court.
      const clerk = await createAccount({ role: 'clerk', court_id: court.id });
      expect(clerk.user).toMatchObject({ role: 'clerk', court_id: court.id, court_name: court.name });
      const [created] = await auditEntries(t, 'create_staff', clerk.user.id);
      expect(created?.after).toMatchObject({ role: 'clerk', court_id: court.id });

      const base = { email: limited.input.email, name: limited.input.name, disabled: false };
      const url = `/api/admin/users/${String(limited.user.id)}`;
      expect((await boss.client.put(url, { ...base, role: 'super_admin', court_id: court.id })).statusCode).toBe(400);
      expect((await boss.client.put(url, { ...base, role: 'admin', court_id: 999_999 })).statusCode).toBe(400);
      const unchanged = (await boss.client.get('/api/admin/users'))
        .json<StaffAccount[]>()
        .find((row) => row.id === limited.user.id);
      expect(unchanged).toMatchObject({ role: 'admin', court_id: court.id });
      // An admin limited to a court can become that court's clerk, and a clerk a full one.
      const demoted = await boss.client.put(url, { ...base, role: 'clerk', court_id: court.id });
      expect(demoted.statusCode, demoted.body).toBe(200);
      expect(demoted.json()).toMatchObject({ role: 'clerk', court_id: court.id, court_name: court.name });
      const full = await boss.client.put(url, { ...base, role: 'clerk', court_id: null });
      expect(full.statusCode).toBe(200);
      expect(full.json()).toMatchObject({ court_id: null, court_name: null });
    });

    it('edits an account and records it in the audit log with before and after', async () => {
      const created = await createAccount({ role: 'clerk' });
      const response = await boss.client.put(`/api/admin/users/${String(created.user.id)}`, {
        email: 'Renamed.Person@School.example',
        name: 'Renamed Person',
        role: 'admin',
        court_id: null,
        disabled: false,
      });
      expect(response.statusCode, response.body).toBe(200);
      const after = response.json<StaffAccount>();
      expect(after).toMatchObject({
        email: 'renamed.person@school.example',
        name: 'Renamed Person',
        role: 'admin',
        username: created.input.username,
      });
      const entries = await auditEntries(t, 'update_staff', created.user.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ staffId: boss.member.id, before: created.user, after });
      expectNoSecrets(entries);
    });

    it('disables a member: their session stops at once and they cannot sign in; enabling lets them back in', async () => {
      const { member, client } = await signedIn(t, 'admin');
      expect((await client.get('/api/me')).statusCode).toBe(200);
      const url = `/api/admin/users/${String(member.id)}`;
      const [row] = await t.db.select().from(staff).where(eq(staff.id, member.id));
      const fields = { email: member.email, name: row!.name, role: 'admin', court_id: null };

      const disabled = await boss.client.put(url, { ...fields, disabled: true });
      expect(disabled.statusCode, disabled.body).toBe(200);
      expect(disabled.json<StaffAccount>().disabled_at).toBe(t.clock.now().toISOString());
      expect((await client.get('/api/me')).statusCode).toBe(401);
      expect((await signIn(t, member.username, member.password)).statusCode).toBe(401);
      // A link cannot be used, nor sent, while the account is disabled.
      expect((await boss.client.post(`${url}/set-password-link`)).statusCode).toBe(400);

      const enabled = await boss.client.put(url, { ...fields, disabled: false });
      expect(enabled.json<StaffAccount>().disabled_at).toBeNull();
      expect((await signIn(t, member.username, member.password)).statusCode).toBe(200);

      const entries = await auditEntries(t, 'update_staff', member.id);
      expect(entries.map((entry) => (entry.after as StaffAccount).disabled_at)).toEqual([
        t.clock.now().toISOString(),
        null,
      ]);
    });

    it('does not let a super_admin disable or demote their own account', async () => {
      const me = await signedIn(t, 'super_admin');
      await createStaff(t.db, { role: 'super_admin' });
      const [row] = await t.db.select().from(staff).where(eq(staff.id, me.member.id));
      const url = `/api/admin/users/${String(me.member.id)}`;
      for (const change of [
        { role: 'super_admin', disabled: true },
        { role: 'admin', disabled: false },
      ]) {
        const response = await me.client.put(url, {
          email: me.member.email,
          name: row!.name,
          court_id: null,
          ...change,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json<{ error: { message: string } }>().error.message).toBe(
          'You cannot disable or demote your own account.',
        );
      }
      const renamed = await me.client.put(url, {
        email: me.member.email,
        name: 'Still In Charge',
        role: 'super_admin',
        court_id: null,
        disabled: false,
      });
      expect(renamed.statusCode).toBe(200);
    });

    it('answers 404 for an account that does not exist', async () => {
      const body = { email: 'nobody@school.example', name: 'Nobody', role: 'clerk', court_id: null, disabled: false };
      expect((await boss.client.put('/api/admin/users/999999', body)).statusCode).toBe(404);
      expect((await boss.client.post('/api/admin/users/999999/set-password-link')).statusCode).toBe(404);
    });
  });
});

describe('the last active super_admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const demote = (member: CreatedStaff) => ({
    email: member.email,
    name: 'Demoted',
    role: 'admin' as const,
    court_id: null,
    disabled: false,
  });
  const activeSuperAdmins = () =>
    t.db
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.role, 'super_admin'), isNull(staff.disabledAt)));

  let survivor: CreatedStaff;

  it('stays one when two super_admins demote each other at the same moment: one change wins, the other is refused', async () => {
    const first = await createStaff(t.db, { role: 'super_admin' });
    const second = await createStaff(t.db, { role: 'super_admin' });
    expect(await activeSuperAdmins()).toHaveLength(2);

    // Both passed the route's role check before either change was made.
    const results = await Promise.allSettled([
      updateStaffAccount(t, { actorId: first.id }, { ...demote(second), id: second.id }),
      updateStaffAccount(t, { actorId: second.id }, { ...demote(first), id: first.id }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({
      statusCode: 400,
      message: 'There must always be at least one active super admin.',
    });
    const remaining = await activeSuperAdmins();
    expect(remaining).toHaveLength(1);
    survivor = remaining[0]?.id === first.id ? first : second;
  });

  it('cannot be disabled by anyone, while a super_admin can still disable another one', async () => {
    const someoneElse = await createStaff(t.db, { role: 'admin' });
    await expect(
      updateStaffAccount(
        t,
        { actorId: someoneElse.id },
        { ...demote(survivor), id: survivor.id, role: 'super_admin', disabled: true },
      ),
    ).rejects.toMatchObject({ statusCode: 400, message: 'There must always be at least one active super admin.' });

    const colleague = await createStaff(t.db, { role: 'super_admin' });
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${String(colleague.id)}`,
      headers: { cookie: await signInStaff(t.app, survivor) },
      payload: { email: colleague.email, name: 'Colleague', role: 'super_admin', court_id: null, disabled: true },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await activeSuperAdmins()).toEqual([{ id: survivor.id }]);
  });
});
