import { count } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { staff } from '../../db/schema.ts';
import { generatePassword, hashPassword } from '../../platform/passwords.ts';

/**
 * On the first start (no staff account yet) creates the first super_admin from ADMIN_USERNAME,
 * ADMIN_EMAIL and ADMIN_PASSWORD. Without a password a random one is generated and handed to
 * `announce` once; it is never stored in the clear and never a fixed default.
 */
export async function ensureFirstSuperAdmin(
  db: Db,
  config: Config,
  announce: (message: string) => void,
): Promise<void> {
  const [row] = await db.select({ n: count() }).from(staff);
  if ((row?.n ?? 0) > 0) return;
  const password = config.admin.password ?? generatePassword();
  await db.insert(staff).values({
    username: config.admin.username,
    email: config.admin.email,
    name: config.admin.username,
    passwordHash: await hashPassword(password),
    role: 'super_admin',
    passwordSetAt: new Date(),
  });
  if (config.admin.password === undefined) {
    announce(
      `Created the first super_admin "${config.admin.username}" with the generated password: ${password}\n` +
        'It is shown only this once. Sign in at /admin-login and change it under Change Password.',
    );
  } else {
    announce(`Created the first super_admin "${config.admin.username}" from ADMIN_PASSWORD.`);
  }
}
