import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../platform/tokens.ts';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { createStudent } from '../testing/factories.ts';
import { uniqueAddress } from '../testing/sign-in.ts';
import { selectRawRows } from './raw-rows.ts';

/** Migration 0032's statement that moves the failures recorded in login_failures. */
function moveStatementOf0032(): string {
  const file = fileURLToPath(new URL('./migrations/0032_failed_guesses.sql', import.meta.url));
  const moves = fs
    .readFileSync(file, 'utf8')
    .split('--> statement-breakpoint')
    .filter((statement) => /^\s*INSERT INTO "failed_guesses"/m.test(statement));
  if (moves.length !== 1) throw new Error('migration 0032 has no one statement moving the failures');
  return moves[0]!;
}

// Decision 055: the failures recorded before migration 0032 still count after it.
describe('migration 0032 on failures recorded in login_failures', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const studentLogin = (lastName: string, dlNumber: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/login/student',
      payload: { last_name: lastName, dl_number: dlNumber },
      remoteAddress,
    });

  it('moves each failure to its subject and its address, where the throttle counts it', async () => {
    const student = await createStudent(t.db);
    const guessedFrom = uniqueAddress();
    // login_failures as migration 0000 made it, with the failures a throttle of before 0032 wrote
    // (its subjects' and addresses' keys as features/auth/throttle.ts hashes them).
    await t.db.execute(sql`create table login_failures (id bigserial primary key, scope text not null,
      subject_hash text not null, ip text not null, created_at timestamptz not null default now())`);
    for (let failure = 1; failure <= 5; failure++) {
      await t.db.execute(sql`insert into login_failures (scope, subject_hash, ip, created_at)
        values ('student', ${hashToken(`student:${student.dlNumber.toLowerCase()}`)}, ${guessedFrom}, ${t.clock.now().toISOString()})`);
    }

    await t.db.execute(sql.raw(moveStatementOf0032()));
    await t.db.execute(sql`drop table login_failures`);

    // The licence has its five failures: the right last name is refused, from any address.
    expect((await studentLogin(student.lastName, student.dlNumber, uniqueAddress())).statusCode).toBe(429);
    // The address has five of its thirty: a sixth failure of another licence there is counted with them.
    const other = await createStudent(t.db);
    expect((await studentLogin('Wrong', other.dlNumber, guessedFrom)).statusCode).toBe(401);
    const [addressRow] = await selectRawRows<{ failures: number }>(
      t.db,
      sql`select cardinality(failed_at) as failures from failed_guesses where key_hash = ${hashToken(`address:${guessedFrom}`)}`,
    );
    expect(Number(addressRow?.failures)).toBe(6);
  });
});
