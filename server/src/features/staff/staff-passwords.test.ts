import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STAFF_PASSWORD_MIN_LENGTH, type StaffAccount } from '@ts/contract';
import { staff } from '../../db/schema.ts';
import { createMailer } from '../../platform/mail/mailer.ts';
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
import {
  WRONG_PASSWORD_MESSAGE,
  type Client,
  clientOf,
  signedIn,
  signIn,
  setPassword,
  tokenOf,
  newAccount,
  auditEntries,
  expectNoSecrets,
} from '../../testing/staff.ts';

const MINUTE = 60_000;

describe('staff passwords', () => {
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
      expect(response.json()).toEqual({
        error: { code: 'WRONG_PASSWORD', message: WRONG_PASSWORD_MESSAGE, requestId: expect.any(String) as string },
      });
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
});
