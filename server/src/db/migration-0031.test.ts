import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { createStudent } from '../testing/factories.ts';
import { quizAttempts } from './schema.ts';

/** Migration 0031's statements, in order. */
function statementsOf0031(): string[] {
  const file = fileURLToPath(new URL('./migrations/0031_one_open_attempt.sql', import.meta.url));
  return fs.readFileSync(file, 'utf8').split('--> statement-breakpoint');
}

// Decision 055: an installation that drew two open attempts of one quiz before the draw's lock.
describe('migration 0031 on attempts drawn before the draw took its lock', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps the newest open attempt of each quiz and every submitted one, then allows one open attempt per quiz', async () => {
    const student = await createStudent(t.db);
    await t.db.execute(sql`drop index quiz_attempts_one_open_key`);
    const attempt = (chapterId: number, submitted: boolean) => ({
      studentId: student.id,
      chapterId,
      questionIds: [1, 2, 3],
      ...(submitted ? { submittedAt: t.clock.now(), score: 3, passed: true } : {}),
    });
    const saved = await t.db
      .insert(quizAttempts)
      .values([attempt(1, true), attempt(1, false), attempt(1, false), attempt(2, false)])
      .returning({ id: quizAttempts.id });

    for (const statement of statementsOf0031()) await t.db.execute(sql.raw(statement));

    const kept = await t.db
      .select({ id: quizAttempts.id })
      .from(quizAttempts)
      .where(eq(quizAttempts.studentId, student.id))
      .orderBy(asc(quizAttempts.id));
    expect(kept.map((row) => row.id)).toEqual([saved[0]!.id, saved[2]!.id, saved[3]!.id]);
    await expect(t.db.insert(quizAttempts).values(attempt(2, false))).rejects.toThrow();
  });
});
