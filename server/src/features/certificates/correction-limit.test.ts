import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { createCourseStudent, recordCourseCompletion } from '../../testing/certificates.ts';
import type { ApiClient } from '../../testing/course.ts';

/** Five requests an hour per student (corrections.routes.ts): what counts towards them. */
describe('the limit on correction requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function completed() {
    const student = await createCourseStudent(t);
    await recordCourseCompletion(t, student.id);
    return student;
  }
  const ask = (student: { id: number; client: ApiClient }, body: Record<string, unknown>) =>
    student.client.post(`/api/students/${String(student.id)}/corrections`, body);

  /** Five requests the schema refuses: a date that is no date, no reason, a field that cannot be corrected... */
  const INVALID_REQUESTS = [
    { field: 'dob', value: '13/45/1990', reason: 'Wrong date' },
    { field: 'dob', value: '1990-04-15', reason: 'Wrong date' },
    { field: 'last_name', value: 'Rivers', reason: '' },
    { field: 'court', value: '3', reason: 'Wrong court' },
    { field: 'last_name', value: '   ', reason: 'Typo in my name' },
  ];

  async function askInvalidFiveTimes(student: { id: number; client: ApiClient }) {
    for (const body of INVALID_REQUESTS) {
      const refused = await ask(student, body);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.code).toBe('VALIDATION_FAILED');
    }
  }

  it('does not count requests refused as invalid input: after five, a valid request is accepted', async () => {
    const student = await completed();
    await askInvalidFiveTimes(student);

    const valid = await ask(student, { field: 'last_name', value: 'Rivers', reason: 'Typo in my name' });

    expect(valid.statusCode, valid.body).toBe(201);
  });

  it('still refuses the sixth well-formed request within the hour, after invalid ones too', async () => {
    const student = await completed();
    await askInvalidFiveTimes(student);

    const codes: number[] = [];
    for (let n = 0; n < 6; n++) {
      codes.push(
        (await ask(student, { field: 'last_name', value: `Rivas${'s'.repeat(n)}`, reason: 'Typo' })).statusCode,
      );
    }

    expect(codes).toEqual([201, 409, 409, 409, 409, 429]);
  });
});
