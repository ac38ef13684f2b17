import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { certificatesOf, completedStudent } from '../testing/certificates.ts';
import { signedInStaff } from '../testing/course.ts';
import { certificateDeliveries, certificates } from './schema.ts';

/** Migration 0027's statements that change rows (its first two add the column and its key). */
function dataStatementsOf0027(): string[] {
  const file = fileURLToPath(new URL('./migrations/0027_replaced_certificates.sql', import.meta.url));
  return fs
    .readFileSync(file, 'utf8')
    .split('--> statement-breakpoint')
    .filter((statement) => /^\s*UPDATE /m.test(statement));
}

// Decision 041: rows written before migration 0027 are brought to what the code now writes.
describe('migration 0027 on rows written before it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('names the reissue on every certificate a past approval superseded, and marks the emails it stopped cancelled', async () => {
    const superAdmin = await signedInStaff(t, 'super_admin');
    const student = await completedStudent(t);
    await superAdmin.post('/api/pdf/certificate?noEmail=1', {
      studentId: student.id,
      completionDate: 'January 2, 2024',
    });
    const asked = await student.client.post(`/api/students/${String(student.id)}/corrections`, {
      field: 'last_name',
      value: 'Rivera',
      reason: 'Typo',
    });
    expect((await superAdmin.post(`/api/admin/corrections/${String(asked.json().id)}/approve`, {})).statusCode).toBe(
      200,
    );
    const approved = await certificatesOf(t.db, student.id);
    const reissue = approved.find((certificate) => certificate.source === 'correction')!;
    // As an approval before 0027 left them: no superseded_by_id, the stopped emails failed.
    await t.db.update(certificates).set({ supersededById: null }).where(eq(certificates.studentId, student.id));
    await t.db
      .update(certificateDeliveries)
      .set({ status: 'failed' })
      .where(eq(certificateDeliveries.status, 'cancelled'));

    for (const statement of dataStatementsOf0027()) await t.db.execute(sql.raw(statement));

    const migrated = await certificatesOf(t.db, student.id);
    expect(migrated.map((certificate) => [certificate.source, certificate.supersededById])).toEqual([
      ['completion', reissue.id],
      ['admin', reissue.id],
      ['correction', null],
    ]);
    const stopped = await t.db
      .select({ status: certificateDeliveries.status })
      .from(certificateDeliveries)
      .where(eq(certificateDeliveries.certificateId, approved[0]!.id));
    expect(stopped.map((delivery) => delivery.status)).toEqual(['cancelled', 'cancelled']);
  });
});
