import os from 'node:os';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SET_PASSWORD_LINK_HOURS, STAFF_PASSWORD_MIN_LENGTH, type StaffAccount, type StaffRole } from '@ts/contract';
import { auditLog, staff, staffPasswordTokens } from '../../db/schema.ts';
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
import { signInStaff, signInStudent, uniqueAddress } from '../../testing/sign-in.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server.ts';
import { updateStaffAccount } from './staff.service.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WRONG_PASSWORD_MESSAGE =
  'There was an error changing your password. Please ensure your current password was typed correctly.';
const INVALID_LINK_MESSAGE = 'This link is invalid or has expired. Ask a super admin for a new one.';

interface Client {
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, payload: unknown): Promise<LightMyRequestResponse>;
}

/** Each call comes from an address of its own, so the routes' per-address limits stay out of the way. */
function clientOf(t: TestApp, cookie: string | null): Client {
  const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      remoteAddress: uniqueAddress(),
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url) => send('GET', url),
    post: (url, payload) => send('POST', url, payload ?? {}),
    put: (url, payload) => send('PUT', url, payload),
  };
}

async function signedIn(
  t: TestApp,
  role: StaffRole,
  courtId: number | null = null,
): Promise<{ member: CreatedStaff; cookie: string; client: Client }> {
  const member = await createStaff(t.db, { role, courtId });
  const cookie = await signInStaff(t.app, member);
  return { member, cookie, client: clientOf(t, cookie) };
}

const signIn = (t: TestApp, username: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login/admin',
    payload: { username, password },
    remoteAddress: uniqueAddress(),
  });

const setPassword = (t: TestApp, token: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/public/staff/set-password',
    payload: { token, password },
    remoteAddress: uniqueAddress(),
  });

const tokenOf = (setPasswordUrl: string) => {
  const token = new URL(setPasswordUrl).hash.replace(/^#token=/, '');
  expect(token.length).toBeGreaterThanOrEqual(40);
  return token;
};

let sequence = 0;
function newAccount(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    username: `new.member${String(sequence)}`,
    email: `new.member${String(sequence)}@school.example`,
    name: `New Member ${String(sequence)}`,
    role: 'clerk',
    court_id: null,
    ...overrides,
  };
}

async function auditEntries(t: TestApp, action: string, entityId: number) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)))
    .orderBy(auditLog.id);
}

/** The audit log keeps no secret: no password hash and no set-password token. */
function expectNoSecrets(entries: unknown, token?: string) {
  const json = JSON.stringify(entries);
  expect(json).not.toMatch(/hash/i);
  expect(json).not.toContain('$argon2');
  if (token) expect(json).not.toContain(token);
}

describe('staff accounts and passwords', () => {
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

  describe('change password (spec 7 POST /admin/change-password)', () => {
    it('changes the password: the new one signs in, the old one no longer does, and it is audited without secrets', async () => {
      const { member, client } = await signedIn(t, 'admin');
      const response = await client.post('/api/admin/change-password', {
        userId: member.id,
        currentPw: member.password,
        newPw: 'a brand new passphrase',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ status: 'SUCCESS' });

      expect((await signIn(t, member.username, member.password)).statusCode).toBe(401);
      expect((await signIn(t, member.username, 'a brand new passphrase')).statusCode).toBe(200);
      const [row] = await t.db.select().from(staff).where(eq(staff.id, member.id));
      expect(row?.passwordSetAt).toEqual(t.clock.now());

      const entries = await auditEntries(t, 'change_password', member.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ staffId: member.id, entityType: 'staff' });
      expect(entries[0]?.after).toEqual({ password_set_at: t.clock.now().toISOString() });
      expectNoSecrets(entries);
    });

    it('ends every other session of the member while the session that changed the password continues', async () => {
      const { member, client } = await signedIn(t, 'clerk');
      const otherDevice = clientOf(t, await signInStaff(t.app, member));
      expect((await otherDevice.get('/api/me')).statusCode).toBe(200);

      const response = await client.post('/api/admin/change-password', {
        userId: member.id,
        currentPw: member.password,
        newPw: 'another long passphrase',
      });
      expect(response.statusCode, response.body).toBe(200);

      expect((await otherDevice.get('/api/me')).statusCode).toBe(401);
      expect((await client.get('/api/me')).statusCode).toBe(200);
    });

    it("answers spec 8's message with WRONG_PASSWORD when the current password is wrong, and changes nothing", async () => {
      const { member, client } = await signedIn(t, 'admin');
      const response = await client.post('/api/admin/change-password', {
        userId: member.id,
        currentPw: 'not my password',
        newPw: 'a brand new passphrase',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'WRONG_PASSWORD', message: WRONG_PASSWORD_MESSAGE } });
      expect((await signIn(t, member.username, member.password)).statusCode).toBe(200);
      expect(await auditEntries(t, 'change_password', member.id)).toEqual([]);
    });

    it('counts wrong current passwords against the sign-in limit of the account, so guessing is no faster here', async () => {
      const { member, client } = await signedIn(t, 'admin');
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const response = await client.post('/api/admin/change-password', {
          userId: member.id,
          currentPw: `guess number ${String(attempt)}`,
          newPw: 'a brand new passphrase',
        });
        expect(response.statusCode).toBe(400);
      }
      const right = { userId: member.id, currentPw: member.password, newPw: 'a brand new passphrase' };
      expect((await client.post('/api/admin/change-password', right)).statusCode).toBe(429);
      expect((await signIn(t, member.username, member.password)).statusCode).toBe(429);

      t.clock.advance(15 * MINUTE + 1000);
      expect((await client.post('/api/admin/change-password', right)).statusCode).toBe(200);
    });

    it("refuses another staff member's userId with 403, even for a super_admin", async () => {
      const other = await createStaff(t.db, { role: 'clerk' });
      const response = await boss.client.post('/api/admin/change-password', {
        userId: other.id,
        currentPw: boss.member.password,
        newPw: 'a brand new passphrase',
      });
      expect(response.statusCode).toBe(403);
      expect((await signIn(t, other.username, other.password)).statusCode).toBe(200);
    });

    it(`refuses a new password shorter than ${String(STAFF_PASSWORD_MIN_LENGTH)} characters`, async () => {
      const { member, client } = await signedIn(t, 'admin');
      const response = await client.post('/api/admin/change-password', {
        userId: member.id,
        currentPw: member.password,
        newPw: 'x'.repeat(STAFF_PASSWORD_MIN_LENGTH - 1),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('VALIDATION_FAILED');
      expect((await signIn(t, member.username, member.password)).statusCode).toBe(200);
    });

    it('lets every staff role change its own password (court-limited admins and clerks too), not a student or anonymous caller', async () => {
      const court = await createCourt(t.db);
      for (const [role, courtId] of [
        ['clerk', null],
        ['clerk', court.id],
        ['admin', court.id],
        ['super_admin', null],
      ] as const) {
        const { member, client } = await signedIn(t, role, courtId);
        const response = await client.post('/api/admin/change-password', {
          userId: member.id,
          currentPw: member.password,
          newPw: `new passphrase for ${role}`,
        });
        expect(response.statusCode, `${role} ${response.body}`).toBe(200);
      }

      const student = await createStudent(t.db);
      await markStudentPaid(t.db, student.id);
      const asStudent = clientOf(t, await signInStudent(t.app, student));
      const body = { userId: student.id, currentPw: 'whatever', newPw: 'a brand new passphrase' };
      expect((await asStudent.post('/api/admin/change-password', body)).statusCode).toBe(403);
      expect((await clientOf(t, null).post('/api/admin/change-password', body)).statusCode).toBe(401);
    });
  });

  describe('strong staff passwords (decision 047)', () => {
    it.each([
      ['one letter twelve times', () => 'aaaaaaaaaaaa', 'too_guessable'],
      ['a run of digits', () => '123456789012', 'too_guessable'],
      ['a common password with digits', () => 'password1234', 'too_guessable'],
      ['the username twice', (member: { username: string }) => `${member.username}${member.username}`, 'contains_name'],
      [
        "the email's name with a year",
        (member: { email: string }) => `${member.email.split('@')[0]!}2026!`,
        'contains_name',
      ],
    ] as const)(
      'refuses %s as a new password with WEAK_PASSWORD saying why, and keeps the old one',
      async (_, make, reason) => {
        const { member, client } = await signedIn(t, 'admin');
        const response = await client.post('/api/admin/change-password', {
          userId: member.id,
          currentPw: member.password,
          newPw: make(member),
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error: { code: 'WEAK_PASSWORD', reason } });
        expect((await signIn(t, member.username, member.password)).statusCode).toBe(200);
        expect(await auditEntries(t, 'change_password', member.id)).toEqual([]);
      },
    );

    it('refuses a password shorter than 12 characters as invalid input', async () => {
      const { member, client } = await signedIn(t, 'admin');
      const response = await client.post('/api/admin/change-password', {
        userId: member.id,
        currentPw: member.password,
        newPw: 'Xq7#pLm2$v',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    });

    it('refuses a weak password chosen through a set-password link, which still works for a strong one', async () => {
      const { input, token } = await createAccount();
      const weak = await setPassword(t, token, `${input.username}-secret`);
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toMatchObject({ error: { code: 'WEAK_PASSWORD', reason: 'contains_name' } });

      expect((await setPassword(t, token, 'violet kettle ninety lamp')).statusCode).toBe(200);
      expect((await signIn(t, input.username, 'violet kettle ninety lamp')).statusCode).toBe(200);
    });
  });

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
      expect(mail.html).toBeUndefined();
      expect(mail.attachments).toEqual([]);

      // No password works before one is chosen, not even the token.
      expect((await signIn(t, 'jane.clerk', created.token)).statusCode).toBe(401);

      const entries = await auditEntries(t, 'create_staff', created.user.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ staffId: boss.member.id, before: null, after: created.user });
      expectNoSecrets(entries, created.token);
    });

    it('sets the password once through the link; the member then signs in, and the same link fails the second time', async () => {
      const created = await createAccount();
      const response = await setPassword(t, created.token, 'my own chosen passphrase');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ status: 'SUCCESS' });

      const signedInAnswer = await signIn(t, created.input.username, 'my own chosen passphrase');
      expect(signedInAnswer.statusCode).toBe(200);
      const [row] = await t.db.select().from(staff).where(eq(staff.id, created.user.id));
      expect(row?.passwordSetAt).toEqual(t.clock.now());

      const again = await setPassword(t, created.token, 'somebody elses passphrase');
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ error: { code: 'INVALID_LINK', message: INVALID_LINK_MESSAGE } });
      expect((await signIn(t, created.input.username, 'somebody elses passphrase')).statusCode).toBe(401);

      const entries = await auditEntries(t, 'change_password', created.user.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]?.after).toEqual({
        password_set_at: t.clock.now().toISOString(),
        via: 'set_password_link',
      });
      expectNoSecrets(entries, created.token);
    });

    it('lets only one of two simultaneous uses of the same link succeed', async () => {
      const created = await createAccount();
      const answers = await Promise.all([
        setPassword(t, created.token, 'first racing passphrase'),
        setPassword(t, created.token, 'second racing passphrase'),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
      const winner = answers[0]?.statusCode === 200 ? 'first racing passphrase' : 'second racing passphrase';
      const loser = winner.startsWith('first') ? 'second racing passphrase' : 'first racing passphrase';
      expect((await signIn(t, created.input.username, winner)).statusCode).toBe(200);
      expect((await signIn(t, created.input.username, loser)).statusCode).toBe(401);
    });

    it(`refuses a link after ${String(SET_PASSWORD_LINK_HOURS)} hours and accepts one just before`, async () => {
      const early = await createAccount();
      const late = await createAccount();
      t.clock.advance(SET_PASSWORD_LINK_HOURS * HOUR - MINUTE);
      expect((await setPassword(t, early.token, 'just in time passphrase')).statusCode).toBe(200);
      t.clock.advance(MINUTE);
      const expired = await setPassword(t, late.token, 'too late passphrase');
      expect(expired.statusCode).toBe(400);
      expect(expired.json<{ error: { code: string } }>().error.code).toBe('INVALID_LINK');
    });

    it('refuses an unknown token as an invalid link', async () => {
      const response = await setPassword(t, 'a'.repeat(43), 'whatever passphrase');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'INVALID_LINK', message: INVALID_LINK_MESSAGE } });
    });

    it('sends a new link that replaces the earlier one, emailed and audited without the token', async () => {
      const created = await createAccount();
      const before = smtp.messages.length;
      const response = await boss.client.post(`/api/admin/users/${String(created.user.id)}/set-password-link`);
      expect(response.statusCode, response.body).toBe(200);
      const link = response.json<{ setPasswordUrl: string; expires_at: string; emailed: boolean }>();
      const token = tokenOf(link.setPasswordUrl);
      expect(token).not.toBe(created.token);
      expect(link.emailed).toBe(true);

      const mails = smtp.messages.slice(before);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.to).toEqual([created.input.email]);
      expect(mails[0]?.text).toContain(link.setPasswordUrl);

      expect((await setPassword(t, created.token, 'from the old link')).statusCode).toBe(400);
      expect((await setPassword(t, token, 'from the new link!')).statusCode).toBe(200);
      expect((await signIn(t, created.input.username, 'from the new link!')).statusCode).toBe(200);

      const entries = await auditEntries(t, 'issue_set_password_link', created.user.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ staffId: boss.member.id, after: { expires_at: link.expires_at } });
      expectNoSecrets(entries, token);
    });

    it("resets a member's password through a new link, ending the sessions of whoever had the old one", async () => {
      const { member, client } = await signedIn(t, 'admin');
      const response = await boss.client.post(`/api/admin/users/${String(member.id)}/set-password-link`);
      const token = tokenOf(response.json<{ setPasswordUrl: string }>().setPasswordUrl);
      // Until the link is used, the old password still works.
      expect((await client.get('/api/me')).statusCode).toBe(200);
      expect((await setPassword(t, token, 'the reset passphrase')).statusCode).toBe(200);
      expect((await client.get('/api/me')).statusCode).toBe(401);
      expect((await signIn(t, member.username, member.password)).statusCode).toBe(401);
      expect((await signIn(t, member.username, 'the reset passphrase')).statusCode).toBe(200);
    });

    it('still creates the account when the email cannot be sent: the link is in the answer and works', async () => {
      await smtp.stop();
      let created: Awaited<ReturnType<typeof createAccount>>;
      try {
        created = await createAccount();
      } finally {
        await smtp.restart();
      }
      expect(created.link.emailed).toBe(false);
      expect((await setPassword(t, created.token, 'passed on by hand')).statusCode).toBe(200);
      expect((await signIn(t, created.input.username, 'passed on by hand')).statusCode).toBe(200);
    });

    it('refuses a username or an email already taken, whatever its case, with STAFF_EXISTS', async () => {
      const existing = await createStaff(t.db, { role: 'clerk' });
      for (const clash of [{ username: existing.username.toUpperCase() }, { email: existing.email.toUpperCase() }]) {
        const response = await boss.client.post('/api/admin/users', newAccount(clash));
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({
          error: { code: 'STAFF_EXISTS', message: 'A staff member with this username or email already exists.' },
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
        error: { code: 'SUPER_ADMIN_ALL_COURTS', message: 'A super admin cannot be limited to one court.' },
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

    it('refuses the link of a member who was disabled after it was sent', async () => {
      const created = await createAccount();
      await t.db.update(staff).set({ disabledAt: t.clock.now() }).where(eq(staff.id, created.user.id));
      const response = await setPassword(t, created.token, 'disabled but trying');
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('INVALID_LINK');
      const [token] = await t.db
        .select()
        .from(staffPasswordTokens)
        .where(and(eq(staffPasswordTokens.staffId, created.user.id), isNull(staffPasswordTokens.usedAt)));
      expect(token).toBeDefined();
    });

    describe('a link does not outlive what it was issued under (review)', () => {
      async function linkFor(memberId: number, issuer: Client = boss.client) {
        const response = await issuer.post(`/api/admin/users/${String(memberId)}/set-password-link`);
        expect(response.statusCode, response.body).toBe(200);
        return tokenOf(response.json<{ setPasswordUrl: string }>().setPasswordUrl);
      }
      const expectRefused = async (token: string) => {
        const response = await setPassword(t, token, 'someone else chose this');
        expect(response.statusCode).toBe(400);
        expect(response.json<{ error: { code: string } }>().error.code).toBe('INVALID_LINK');
      };

      it("ends a member's open link when they change their own password", async () => {
        const { member, client } = await signedIn(t, 'super_admin');
        const token = await linkFor(member.id);
        const changed = await client.post('/api/admin/change-password', {
          userId: member.id,
          currentPw: member.password,
          newPw: 'a passphrase of my own',
        });
        expect(changed.statusCode, changed.body).toBe(200);
        await expectRefused(token);
        expect((await signIn(t, member.username, 'a passphrase of my own')).statusCode).toBe(200);
      });

      it("ends a member's open link when their address, role or court changes, or they are disabled", async () => {
        const court = await createCourt(t.db);
        const changes = [
          { email: 'moved.elsewhere@school.example' },
          { role: 'admin' },
          { court_id: court.id },
          { disabled: true },
        ];
        for (const change of changes) {
          const created = await createAccount({ role: 'clerk' });
          const url = `/api/admin/users/${String(created.user.id)}`;
          const fields = { email: created.input.email, name: created.input.name, role: 'clerk', court_id: null };
          const edited = await boss.client.put(url, { ...fields, disabled: false, ...change });
          expect(edited.statusCode, edited.body).toBe(200);
          if ('disabled' in change) await boss.client.put(url, { ...fields, disabled: false });
          await expectRefused(created.token);
        }
        // A change of name only leaves the link working.
        const created = await createAccount({ role: 'clerk' });
        const renamed = await boss.client.put(`/api/admin/users/${String(created.user.id)}`, {
          email: created.input.email,
          name: 'Only The Name Changed',
          role: 'clerk',
          court_id: null,
          disabled: false,
        });
        expect(renamed.statusCode, renamed.body).toBe(200);
        expect((await setPassword(t, created.token, 'still mine to choose')).statusCode).toBe(200);
      });

      it('ends the links a super_admin issued once they are disabled or demoted, whatever the member did since', async () => {
        for (const change of [{ disabled: true }, { role: 'admin' }]) {
          const issuer = await signedIn(t, 'super_admin');
          const target = await signedIn(t, 'super_admin');
          const token = await linkFor(target.member.id, issuer.client);
          const [row] = await t.db.select().from(staff).where(eq(staff.id, issuer.member.id));
          const edited = await boss.client.put(`/api/admin/users/${String(issuer.member.id)}`, {
            email: issuer.member.email,
            name: row!.name,
            role: 'super_admin',
            court_id: null,
            disabled: false,
            ...change,
          });
          expect(edited.statusCode, edited.body).toBe(200);
          await expectRefused(token);
          expect((await signIn(t, target.member.username, 'someone else chose this')).statusCode).toBe(401);
        }
      });

      it('refuses a link whose issuer is no longer an active super_admin, however that came about', async () => {
        const issuer = await signedIn(t, 'super_admin');
        const created = await createAccount();
        const token = await linkFor(created.user.id, issuer.client);
        await t.db.update(staff).set({ role: 'admin' }).where(eq(staff.id, issuer.member.id));
        await expectRefused(token);
        await t.db.update(staff).set({ role: 'super_admin' }).where(eq(staff.id, issuer.member.id));
        expect((await setPassword(t, token, 'issuer restored, link good')).statusCode).toBe(200);
      });
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
