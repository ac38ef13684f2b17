import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { type ApiClient, signedInStaff } from '../../testing/course.ts';
import { createCourt, createStudent } from '../../testing/factories.ts';
import { MAX_FAILURES_PER_SUBJECT } from '../auth/throttle.ts';

const CONTACT = { address: '9 Pine Road', city: 'Reno', state: 'NV', zip: '89501', resend: false };

/**
 * A court-limited admin learns that an email is enrolled at another court when using it for
 * their own student is refused as in use: each such refusal counts as a guess of their account
 * (withStaffProbeThrottle), and past the limit their changes answer 429 before they run.
 */
describe("a court-limited admin's refused changes", () => {
  let t: TestApp;
  let ownCourt: number;
  let otherEmails: string[];
  beforeAll(async () => {
    t = await buildTestApp();
    ownCourt = (await createCourt(t.db)).id;
    const otherCourt = (await createCourt(t.db)).id;
    otherEmails = [];
    for (let n = 0; n <= MAX_FAILURES_PER_SUBJECT; n += 1) {
      otherEmails.push((await createStudent(t.db, { courtId: otherCourt })).email);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  async function courtAdmin(courtId: number | null): Promise<ApiClient> {
    return signedInStaff(t, 'admin', courtId);
  }

  it('answers 409 for the first five emails in use elsewhere, then 429 before the change runs, even for a free email', async () => {
    const admin = await courtAdmin(ownCourt);
    const own = await createStudent(t.db, { courtId: ownCourt });
    const contactUrl = `/api/admin/students/${String(own.id)}/contact`;
    for (const email of otherEmails.slice(0, MAX_FAILURES_PER_SUBJECT)) {
      const refused = await admin.put(contactUrl, { ...CONTACT, email });
      expect(refused.statusCode, refused.body).toBe(409);
    }
    const probe = await admin.put(contactUrl, { ...CONTACT, email: otherEmails[MAX_FAILURES_PER_SUBJECT] });
    expect(probe.statusCode).toBe(429);
    expect(probe.headers['retry-after']).toBeDefined();
    // A free address would say "not in use": over the limit it is not tried either.
    const free = await admin.put(contactUrl, { ...CONTACT, email: 'free.address@example.com' });
    expect(free.statusCode).toBe(429);
    const [row] = await t.db.select().from(students).where(eq(students.id, own.id));
    expect(row?.email).toBe(own.email);
  });

  it('does not count the refusals of a school-wide admin, who sees every court', async () => {
    const admin = await courtAdmin(null);
    const own = await createStudent(t.db, { courtId: ownCourt });
    for (const email of otherEmails) {
      const refused = await admin.put(`/api/admin/students/${String(own.id)}/contact`, { ...CONTACT, email });
      expect(refused.statusCode).toBe(409);
    }
  });
});
