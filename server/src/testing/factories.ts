import { eq } from 'drizzle-orm';
import type { Registration, StaffRole } from '@ts/contract';
import type { Db } from '../db/client.ts';
import { counties, courts, staff, students } from '../db/schema.ts';
import { hashPassword } from '../platform/passwords.ts';
import { createToken, hashToken } from '../platform/tokens.ts';
import { PAYMENT_COOKIE } from '../features/payments/payment-access.ts';

let sequence = 0;
const next = () => ++sequence;

/** The id of the n-th court of the seeded list (content/courts.json), by name order. */
export async function getCourtId(db: Db, index = 0): Promise<number> {
  const rows = await db.select({ id: courts.id }).from(courts).orderBy(courts.name);
  const row = rows[index];
  if (!row) throw new Error(`there is no court number ${String(index)}`);
  return row.id;
}

export interface CreatedCourt {
  id: number;
  countyId: number;
  name: string;
}

/** A county of its own (in a state of its own), so a filter by county finds only what the test made. */
export async function createCounty(db: Db, overrides: Partial<typeof counties.$inferInsert> = {}): Promise<number> {
  const n = next();
  const [row] = await db
    .insert(counties)
    .values({ state: 'ZZ', name: `Test County ${String(n)}`, ...overrides })
    .returning({ id: counties.id });
  if (!row) throw new Error('county was not created');
  return row.id;
}

/** A court of its own, in a new county unless one is given; priceCents overrides the school's price. */
export async function createCourt(db: Db, overrides: Partial<typeof courts.$inferInsert> = {}): Promise<CreatedCourt> {
  const n = next();
  const countyId = overrides.countyId ?? (await createCounty(db));
  const [row] = await db
    .insert(courts)
    .values({
      name: `Test Traffic Court ${String(n)}`,
      email: `clerk${String(n)}@court.example`,
      ...overrides,
      countyId,
    })
    .returning();
  if (!row) throw new Error('court was not created');
  return { id: row.id, countyId: row.countyId, name: row.name };
}

/** A registration payload as the form sends it: every field valid and unique. */
export function buildRegistration(overrides: Partial<Registration> = {}): Registration {
  const n = next();
  return {
    first_name: 'Maria',
    last_name: `Lopez${String(n)}`,
    email: `maria.lopez${String(n)}@example.com`,
    dl_number: `D${String(1000000 + n)}`,
    dob: '04/15/1990',
    address: `${String(n)} Main Street`,
    city: 'Los Angeles',
    state: 'CA',
    zip: '90012',
    court: 1,
    ...overrides,
  };
}

export interface CreatedStudent {
  id: number;
  lastName: string;
  dlNumber: string;
  email: string;
  address: string;
}

/** A registered (not yet paid) student, written straight to the database. */
export async function createStudent(
  db: Db,
  overrides: Partial<typeof students.$inferInsert> = {},
): Promise<CreatedStudent> {
  const n = next();
  const courtId = overrides.courtId ?? (await getCourtId(db));
  const [row] = await db
    .insert(students)
    .values({
      firstName: 'Sam',
      lastName: `Rivera${String(n)}`,
      email: `sam.rivera${String(n)}@example.com`,
      dlNumber: `S${String(2000000 + n)}`,
      dob: '1988-07-04',
      address: `${String(n)} Oak Avenue`,
      city: 'Fresno',
      state: 'CA',
      zip: '93721',
      courtId,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('student was not created');
  return { id: row.id, lastName: row.lastName, dlNumber: row.dlNumber, email: row.email, address: row.address };
}

/** Marks a student paid (until the payments feature has its own factory). */
export async function markStudentPaid(db: Db, studentId: number, at = new Date()): Promise<void> {
  await db.update(students).set({ paymentAt: at }).where(eq(students.id, studentId));
}

/**
 * What the browser that registered a student holds (decision 048): the payment cookie, as a
 * Cookie header value, for a student made by createStudent (a registration sets it itself).
 */
export function paymentCookieFor(db: Db, studentId: number): Promise<string> {
  const issued = paymentCookies.get(db) ?? new Map<number, Promise<string>>();
  paymentCookies.set(db, issued);
  // One per student, as one browser holds one: calls at once (a double click) carry the same.
  let cookie = issued.get(studentId);
  if (!cookie) {
    const token = `${String(Date.now() + 10 * 365 * 24 * 3600_000)}.${createToken()}`;
    cookie = db
      .update(students)
      .set({ paymentTokenHash: hashToken(token) })
      .where(eq(students.id, studentId))
      .then(() => `${PAYMENT_COOKIE}=${token}`);
    issued.set(studentId, cookie);
  }
  return cookie;
}
const paymentCookies = new WeakMap<Db, Map<number, Promise<string>>>();

export interface CreatedStaff {
  id: number;
  username: string;
  email: string;
  password: string;
}

/** A staff account with a known password. */
export async function createStaff(
  db: Db,
  options: { role?: StaffRole; courtId?: number | null; disabledAt?: Date } = {},
): Promise<CreatedStaff> {
  const n = next();
  const password = `correct horse battery ${String(n)}`;
  const [row] = await db
    .insert(staff)
    .values({
      username: `staff${String(n)}`,
      email: `staff${String(n)}@school.example`,
      name: `Staff Member ${String(n)}`,
      passwordHash: await hashPassword(password),
      role: options.role ?? 'admin',
      courtId: options.courtId ?? null,
      disabledAt: options.disabledAt ?? null,
      passwordSetAt: new Date(),
    })
    .returning();
  if (!row) throw new Error('staff member was not created');
  return { id: row.id, username: row.username, email: row.email, password };
}
