import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { passChapter, signInPaidStudent } from '../../testing/course.ts';

describe('course progress: chapter order, modules before a quiz, chapter completion', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const paidStudent = () => signInPaidStudent(t);

  it('keeps chapters in order: a later quiz, a module of a later chapter, and the final are refused', async () => {
    const { id, client } = await paidStudent();
    const chapterTwo = await client.get('/api/quiz/questions/2');
    expect(chapterTwo.statusCode).toBe(409);
    expect(chapterTwo.json().error.code).toBe('CHAPTER_LOCKED');

    const [moduleOfTwo] = (await client.get('/api/content/modules/2')).json<{ id: number }[]>();
    const early = await client.post('/api/students/moduleComplete', { studentId: id, moduleId: moduleOfTwo!.id });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('CHAPTER_LOCKED');
    expect((await client.get('/api/content/modules/2')).json<{ complete: boolean }[]>()[0]?.complete).toBe(false);

    const final = await client.get(`/api/quiz/finalExamQuestions/${String(id)}`);
    expect(final.statusCode).toBe(409);
    expect(final.json().error.message).toBe('You must complete all the chapters before taking the final exam!');
  });

  it('records a module of a chapter once the chapters before it are complete, and a repeat changes nothing', async () => {
    const { id, client } = await paidStudent();
    await passChapter(client, t.db, id, 1);
    const [first] = (await client.get('/api/content/modules/2')).json<{ id: number }[]>();

    for (let i = 0; i < 2; i++) {
      const marked = await client.post('/api/students/moduleComplete', { studentId: id, moduleId: first!.id });
      expect(marked.statusCode).toBe(200);
    }

    const modules = (await client.get('/api/content/modules/2')).json<{ id: number; complete: boolean }[]>();
    expect(modules.filter((module) => module.complete).map((module) => module.id)).toEqual([first!.id]);
  });

  it('opens a chapter quiz only when every module of the chapter is marked complete', async () => {
    const { client } = await paidStudent();
    const response = await client.get('/api/quiz/questions/1');
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('MODULES_INCOMPLETE');
  });

  it('refuses chapterComplete without a passing attempt, and repeats it harmlessly after one', async () => {
    const { id, client } = await paidStudent();
    const early = await client.post('/api/students/chapterComplete', { studentId: id, chapterId: 1 });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('QUIZ_NOT_PASSED');
    await passChapter(client, t.db, id, 1);
    for (let i = 0; i < 2; i++) {
      const again = await client.post('/api/students/chapterComplete', { studentId: id, chapterId: 1 });
      expect(again.statusCode).toBe(200);
    }
    expect((await client.get(`/api/students/${String(id)}/completedChapters`)).json()).toEqual([1]);
  });
});
