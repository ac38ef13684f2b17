import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { staff } from '../../db/schema.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { ensureFirstSuperAdmin } from './first-admin.ts';

describe('ensureFirstSuperAdmin with ADMIN_PASSWORD set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates the first super_admin from the configuration, who can then sign in', async () => {
    const config = loadTestConfig({
      ADMIN_USERNAME: 'principal',
      ADMIN_EMAIL: 'principal@school.example',
      ADMIN_PASSWORD: 'a long enough secret',
    });
    const announced: string[] = [];

    await ensureFirstSuperAdmin(t.db, config, (message) => announced.push(message));

    const rows = await t.db.select().from(staff);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      username: 'principal',
      email: 'principal@school.example',
      role: 'super_admin',
      courtId: null,
      disabledAt: null,
    });
    expect(rows[0]?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(announced).toEqual(['Created the first super_admin "principal" from ADMIN_PASSWORD.']);

    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/admin',
      payload: { username: 'principal@school.example', password: 'a long enough secret' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ type: 'super_admin', name: 'principal' });
  });

  it('does nothing once a staff account exists, even with other settings', async () => {
    const announced: string[] = [];
    await ensureFirstSuperAdmin(t.db, loadTestConfig({ ADMIN_USERNAME: 'someone-else' }), (message) =>
      announced.push(message),
    );
    expect(announced).toEqual([]);
    expect((await t.db.select().from(staff)).map((row) => row.username)).toEqual(['principal']);
  });
});

describe('ensureFirstSuperAdmin without ADMIN_PASSWORD', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('generates a random password, shows it once and keeps only its hash', async () => {
    const announced: string[] = [];
    await ensureFirstSuperAdmin(database.db, loadTestConfig(), (message) => announced.push(message));

    expect(announced).toHaveLength(1);
    const password = /generated password: (\S+)/.exec(announced[0] ?? '')?.[1];
    expect(password).toMatch(/^[\w-]{20,}$/);
    const [row] = await database.db.select().from(staff);
    expect(row).toMatchObject({ username: 'admin', email: 'admin@example.com', role: 'super_admin' });
    expect(row?.passwordHash).not.toContain(password);
    expect(await verifyPassword(row?.passwordHash ?? '', password ?? '')).toBe(true);

    await ensureFirstSuperAdmin(database.db, loadTestConfig(), (message) => announced.push(message));
    expect(announced).toHaveLength(1);
  });
});
