import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, identityChecks, quizAttempts, staffPasswordTokens } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { completeModulesOf, signInPaidStudent, signedInStaff } from '../testing/course.ts';
import { createStaff, type CreatedStaff } from '../testing/factories.ts';
import { CROSS_SITE_MESSAGE } from './cross-site.ts';

/**
 * Decisions 044 and 046: a call under /api/, whatever its method, that a browser says comes from
 * another site is refused with 403 before its route runs, whatever cookie it carries.
 */

/** The payment provider's webhook (payments.routes.ts), called by Stripe's servers: the one exemption. */
const WEBHOOK_PATH = '/api/public/payment/webhook';

const REFUSED = { error: { code: 'FORBIDDEN', message: CROSS_SITE_MESSAGE, requestId: expect.any(String) as string } };

describe('cross-site requests', () => {
  let t: TestApp;
  let cookie: string;
  let member: CreatedStaff;

  beforeAll(async () => {
    t = await buildTestApp();
    cookie = (await signedInStaff(t, 'super_admin')).cookie;
    member = await createStaff(t.db, { role: 'admin' });
  });

  afterAll(async () => {
    await t.close();
  });

  /** A super_admin's "send a new set-password link", as a page would post it, with these headers. */
  function sendLink(headers: Record<string, string>) {
    const request: InjectOptions = {
      method: 'POST',
      url: `/api/admin/users/${String(member.id)}/set-password-link`,
      headers: { cookie, 'content-type': 'text/plain', ...headers },
      payload: '',
    };
    return t.app.inject(request);
  }

  /** The links issued to the member and the audit entries about them: what the call changes. */
  async function linkRecords() {
    const tokens = await t.db.select().from(staffPasswordTokens).where(eq(staffPasswordTokens.staffId, member.id));
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'issue_set_password_link'), eq(auditLog.entityId, member.id)));
    return { tokens: tokens.length, audits: audits.length };
  }

  it('refuses a cross-site POST with a staff cookie with 403 FORBIDDEN, and changes nothing', async () => {
    const before = await linkRecords();

    const response = await sendLink({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });

    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REFUSED);
    expect(await linkRecords()).toEqual(before);
  });

  it('refuses a POST from a sibling site (Sec-Fetch-Site: same-site)', async () => {
    const before = await linkRecords();

    const response = await sendLink({ origin: 'https://blog.localhost', 'sec-fetch-site': 'same-site' });

    expect(response.statusCode).toBe(403);
    expect(await linkRecords()).toEqual(before);
  });

  it('refuses a POST whose Origin is another site when the browser sends no Sec-Fetch-Site', async () => {
    const before = await linkRecords();

    const response = await sendLink({ origin: 'https://evil.example' });

    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REFUSED);
    expect(await linkRecords()).toEqual(before);
  });

  it.each([
    ['PUT', '/api/admin/users/1'],
    ['DELETE', '/api/students/1'],
    ['PATCH', '/api/students/1'],
  ] as const)('refuses a cross-site %s %s alike', async (method, url) => {
    const response = await t.app.inject({ method, url, headers: { cookie, 'sec-fetch-site': 'cross-site' } });

    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REFUSED);
  });

  it('lets a same-origin POST through (Sec-Fetch-Site: same-origin)', async () => {
    const response = await sendLink({ origin: t.config.publicUrl, 'sec-fetch-site': 'same-origin' });

    expect(response.statusCode, response.body).toBe(200);
  });

  it('lets a POST through whose Origin is the public URL, without Sec-Fetch-Site', async () => {
    const before = await linkRecords();

    const response = await sendLink({ origin: t.config.publicUrl });

    expect(response.statusCode, response.body).toBe(200);
    expect((await linkRecords()).audits).toBe(before.audits + 1);
  });

  it("lets a POST through whose Origin is the request's own host, without Sec-Fetch-Site", async () => {
    const response = await sendLink({ host: 'school.example', origin: 'https://school.example' });

    expect(response.statusCode, response.body).toBe(200);
  });

  it('lets a request with neither Sec-Fetch-Site nor Origin through (server to server, curl)', async () => {
    const response = await sendLink({});

    expect(response.statusCode, response.body).toBe(200);
  });

  it("lets the payment provider's webhook through with no such headers, to its own signature check", async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });

    // The built-in test provider sends no webhooks: the route itself refuses the delivery.
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'BAD_REQUEST',
        message: 'The webhook signature could not be verified.',
        requestId: expect.any(String) as string,
      },
    });
  });

  it('refuses a GET that draws a quiz attempt when a page on another site navigates to it, and draws nothing', async () => {
    const { id, client } = await signInPaidStudent(t);
    await completeModulesOf(client, t.db, id, 1);

    const response = await t.app.inject({
      method: 'GET',
      url: '/api/quiz/questions/1',
      // What a top-level navigation from another site sends: the SameSite=Lax cookie goes with it.
      headers: { cookie: client.cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    });

    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REFUSED);
    expect(await t.db.select().from(quizAttempts).where(eq(quizAttempts.studentId, id))).toEqual([]);
  });

  it('refuses a cross-site GET of the identity check, and asks nothing', async () => {
    const { id, client } = await signInPaidStudent(t);

    const response = await t.app.inject({
      method: 'GET',
      url: `/api/students/${String(id)}/identity-check`,
      headers: { cookie: client.cookie, origin: 'https://evil.example' },
    });

    expect(response.statusCode).toBe(403);
    expect(await t.db.select().from(identityChecks).where(eq(identityChecks.studentId, id))).toEqual([]);
  });

  it('refuses any GET under /api/ from another site, even one that only reads', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/me?x=1',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });

    expect(response.statusCode).toBe(403);
  });

  it("serves a GET the school's own page sends, and one typed in the address bar (Sec-Fetch-Site: none)", async () => {
    for (const site of ['same-origin', 'none']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { cookie, 'sec-fetch-site': site },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it("lets the payment provider's webhook through even when it is said to come from another site", async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site', origin: 'https://stripe.example' },
      payload: '{}',
    });

    expect(response.statusCode).toBe(400);
  });
});
