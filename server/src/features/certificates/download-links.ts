import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { appSecrets } from '../../db/schema.ts';

const SECRET_NAME = 'certificate-link-key';
/** A link in an email works for 30 days; after that the student signs in to download. */
export const LINK_DAYS = 30;

/** The key that signs download links: made once by the server and kept in the database. */
export async function getLinkKey(db: Db): Promise<string> {
  await db
    .insert(appSecrets)
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
  if (!row) throw new Error('no link key');
  return row.value;
}

function sign(key: string, number: string, expires: number): string {
  return createHmac('sha256', key)
    .update(`${number}.${String(expires)}`)
    .digest('base64url');
}

export function signDownloadPath(key: string, number: string, now: Date): string {
  const expires = Math.floor(now.getTime() / 1000) + LINK_DAYS * 86_400;
  return `/api/certificates/${encodeURIComponent(number)}/pdf?expires=${String(expires)}&signature=${sign(key, number, expires)}`;
}

export function isValidDownloadSignature(
  key: string,
  number: string,
  expires: number | undefined,
  signature: string | undefined,
  now: Date,
): boolean {
  if (expires === undefined || !signature || expires * 1000 < now.getTime()) return false;
  const expected = Buffer.from(sign(key, number, expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
