import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCompletions, students } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { moduleIdsOf } from '../../testing/course.ts';
import { createStudent } from '../../testing/factories.ts';

/**
 * The progress version (migration 0010, 0025): every instance's copy of a student's progress is
 * good while the version it was read at is the student's; any committed change to the student's
 * completions or attempts raises it, once per transaction is enough.
 */
describe("a student's progress version", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const versionsOf = async (ids: number[]) => {
    const rows = await t.db
      .select({ id: students.id, version: students.progressVersion })
      .from(students)
      .where(inArray(students.id, ids));
    return ids.map((id) => rows.find((row) => row.id === id)?.version);
  };

  it('rises once for a transaction that changes several of a student’s rows, again for each later transaction, and for each student changed', async () => {
    const [one, two] = [await createStudent(t.db), await createStudent(t.db)];
    const [first, second, third] = await moduleIdsOf(t.db, 1);
    const [startOne, startTwo] = await versionsOf([one.id, two.id]);

    // Two of one student's completions in one statement.
    await t.db.insert(moduleCompletions).values([
      { studentId: one.id, moduleId: first! },
      { studentId: one.id, moduleId: second! },
    ]);
    const afterOneStatement = await versionsOf([one.id]);
    // A later transaction of two statements, one for each student.
    await t.db.transaction(async (tx) => {
      await tx.insert(moduleCompletions).values({ studentId: one.id, moduleId: third! });
      await tx.insert(moduleCompletions).values({ studentId: two.id, moduleId: first! });
    });
    const afterTransaction = await versionsOf([one.id, two.id]);
    // Undoing a completion is a change too.
    await t.db.delete(moduleCompletions).where(eq(moduleCompletions.studentId, two.id));
    const afterDelete = await versionsOf([two.id]);

    expect([afterOneStatement, afterTransaction, afterDelete]).toEqual([
      [startOne! + 1],
      [startOne! + 2, startTwo! + 1],
      [startTwo! + 2],
    ]);
  });
});
