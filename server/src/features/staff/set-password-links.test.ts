import os from 'node:os';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SET_PASSWORD_LINK_HOURS, type StaffAccount } from '@ts/contract';
import { staff, staffPasswordTokens } from '../../db/schema.ts';
import { createMailer } from '../../platform/mail/mailer.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { createCourt, createStaff, type CreatedStaff } from '../../testing/factories.ts';
import { signInStaff } from '../../testing/sign-in.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server.ts';
import {
  INVALID_LINK_MESSAGE,
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
const HOUR = 60 * MINUTE;

describe('set-password links', () => {
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

  describe('one-time links (/api/public/staff/set-password)', () => {
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
      expect(again.json()).toEqual({
        error: { code: 'INVALID_LINK', message: INVALID_LINK_MESSAGE, requestId: expect.any(String) as string },
      });
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
      expect(response.json()).toEqual({
        error: { code: 'INVALID_LINK', message: INVALID_LINK_MESSAGE, requestId: expect.any(String) as string },
      });
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
  });
});
