import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminQuestion, Module, Quiz, QuizResult } from '@ts/contract';
import { buildSecondInstance, buildTestApp, type TestApp } from './testing/build-test-app.ts';
import { answersFor, apiClient, completeModulesOf, passChapter, signInPaidStudent } from './testing/course.ts';
import { createStaff } from './testing/factories.ts';
import { signInStaff } from './testing/sign-in.ts';

// Two instances of the server on one database, as behind a load balancer (decision 019): whatever one
// keeps in memory, a change made through the other is seen at once.
describe('two instances on one database', () => {
  let t: TestApp;
  let second: Awaited<ReturnType<typeof buildSecondInstance>>;
  beforeAll(async () => {
    t = await buildTestApp();
    second = await buildSecondInstance(t);
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('refuses a session on the other instance at once after a sign-out on one', async () => {
    const { id, client } = await signInPaidStudent(t);
    const onSecond = (url: string) => second.app.inject({ method: 'GET', url, headers: { cookie: client.cookie } });
    expect((await onSecond(`/api/students/${String(id)}/completedChapters`)).statusCode).toBe(200);
    expect((await client.post('/api/logout', {})).statusCode).toBe(204);
    expect((await onSecond(`/api/students/${String(id)}/completedChapters`)).statusCode).toBe(401);
    expect((await onSecond('/api/me')).statusCode).toBe(401);
  });

  it('shows progress made through one instance on the other at once', async () => {
    const { id, client } = await signInPaidStudent(t);
    const onSecond = apiClient(second.app, client.cookie);
    const modulesUrl = `/api/content/modules/1?userId=${String(id)}`;
    // The second instance reads the student's progress first, and so holds a copy of it.
    const before = (await onSecond.get(modulesUrl)).json<Module[]>();
    expect(before.every((module) => !module.complete)).toBe(true);
    expect((await onSecond.get(`/api/students/${String(id)}/completedChapters`)).json()).toEqual([]);

    const first = before[0]!;
    expect((await client.post('/api/students/moduleComplete', { studentId: id, moduleId: first.id })).statusCode).toBe(
      200,
    );
    const after = (await onSecond.get(modulesUrl)).json<Module[]>();
    expect(after.find((module) => module.id === first.id)?.complete).toBe(true);
    expect(after.filter((module) => module.complete)).toHaveLength(1);

    await passChapter(client, t.db, id, 1);
    expect((await onSecond.get(`/api/students/${String(id)}/completedChapters`)).json()).toEqual([1]);
  });

  it("serves an admin's question edit on both instances at once", async () => {
    const { id, client } = await signInPaidStudent(t);
    await completeModulesOf(client, t.db, id, 1);
    // The student draws on the second instance, which then holds the course content in memory.
    const studentOnSecond = apiClient(second.app, client.cookie);
    const drawn = (await studentOnSecond.get('/api/quiz/questions/1')).json<Quiz>();
    const question = drawn.questions[0]!;

    const admin = await createStaff(t.db, { role: 'admin' });
    const adminOnFirst = apiClient(t.app, await signInStaff(t.app, admin));
    const edited = await adminOnFirst.post(`/api/admin/edit/question/${String(question.id)}`, {
      content: 'Edited on the first instance: what does a flashing red light mean?',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<AdminQuestion>().question).toMatch(/^Edited on the first instance/);

    // The same open attempt, read again through each instance: both show the new text.
    for (const instance of [studentOnSecond, client]) {
      const again = (await instance.get('/api/quiz/questions/1')).json<Quiz>();
      expect(again.attemptId).toBe(drawn.attemptId);
      expect(again.questions.find((shown) => shown.id === question.id)?.question).toBe(
        'Edited on the first instance: what does a flashing red light mean?',
      );
    }
  });

  it('never shows again on one instance a quiz submitted through the other', async () => {
    const { id, client } = await signInPaidStudent(t);
    await completeModulesOf(client, t.db, id, 1);
    const onSecond = apiClient(second.app, client.cookie);
    // Drawn on the first, then shown again on the second, which keeps a copy of the open attempt.
    const drawn = (await client.get('/api/quiz/questions/1')).json<Quiz>();
    expect((await onSecond.get('/api/quiz/questions/1')).json<Quiz>().attemptId).toBe(drawn.attemptId);

    const submitted = await client.post('/api/quiz/score', {
      studentId: id,
      chapter: 1,
      attemptId: drawn.attemptId,
      questions: await answersFor(t.db, drawn, 0),
    });
    expect(submitted.json<QuizResult>().status).toBe('FAIL');
    // The second instance draws a new attempt rather than show the graded one.
    const next = (await onSecond.get('/api/quiz/questions/1')).json<Quiz>();
    expect(next.attemptId).not.toBe(drawn.attemptId);
    expect((await client.get('/api/quiz/questions/1')).json<Quiz>().attemptId).toBe(next.attemptId);
  });

  it('refuses, on the instance that drew it, an attempt already graded through the other, and keeps the first grade', async () => {
    const { id, client } = await signInPaidStudent(t);
    await completeModulesOf(client, t.db, id, 1);
    const onSecond = apiClient(second.app, client.cookie);
    // Drawn on the first instance, which holds the attempt for its submission.
    const drawn = (await client.get('/api/quiz/questions/1')).json<Quiz>();
    const failing = await answersFor(t.db, drawn, 0);
    const graded = await onSecond.post('/api/quiz/score', {
      studentId: id,
      chapter: 1,
      attemptId: drawn.attemptId,
      questions: failing,
    });
    expect(graded.json<QuizResult>().status).toBe('FAIL');

    const again = await client.post('/api/quiz/score', {
      studentId: id,
      chapter: 1,
      attemptId: drawn.attemptId,
      questions: await answersFor(t.db, drawn, drawn.questions.length),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'NO_OPEN_ATTEMPT' } });
    expect((await client.get(`/api/students/${String(id)}/completedChapters`)).json()).toEqual([]);
  });
});
