import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Module, Quiz } from '@ts/contract';
import { chapterBank, finalBanks, getCourseContent } from '../../db/course-content.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { onlyCertificateOf, recordCourseCompletion } from '../../testing/certificates.ts';
import { COURSE_NAME } from '../certificates/certificate-snapshot.ts';
import { completeModulesOf, moduleIdsOf, signInPaidStudent } from '../../testing/course.ts';
import { createRulesStudent, type RulesStudent } from '../../testing/rules.ts';

/**
 * Decision 051: a rules profile names its state edition; its students are served the edition's
 * modules in the chapters they join and its questions in those chapters' banks and the final's;
 * nobody else is.
 */
describe('state editions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function texan(): Promise<RulesStudent> {
    const student = await createRulesStudent(t, 'six-hour-student-delivers');
    return student;
  }

  async function titlesOf(client: RulesStudent['client'], studentId: number, chapter: number): Promise<string[]> {
    const response = await client.get(`/api/content/modules/${String(chapter)}?userId=${String(studentId)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Module[]>().map((module) => module.title);
  }

  it("serves a Texas court's student the Texas modules after the shared ones of their chapters", async () => {
    const student = await texan();
    const chapter1 = await titlesOf(student.client, student.id, 1);
    expect(chapter1.slice(-2)).toEqual(['Texas Traffic Laws', 'What Texas Asks Every Driver to Know']);
    expect((await titlesOf(student.client, student.id, 3)).at(-1)).toMatch(/^Texas DWI/);
    expect(chapter1.some((title) => /Florida|California/.test(title))).toBe(false);
    const [texasModule] = (await moduleIdsOf(t.db, 1, 'tx')).slice(-1);
    const topics = await student.client.get(`/api/content/topics/${String(texasModule)}`);
    expect(topics.statusCode).toBe(200);
    expect(topics.json<{ title: string }[]>().length).toBeGreaterThanOrEqual(2);
  });

  it("serves a Florida court's student Florida's modules and never Texas's", async () => {
    const student = await createRulesStudent(t, 'four-hour-identity');
    const chapter1 = await titlesOf(student.client, student.id, 1);
    expect(chapter1.at(-1)).toMatch(/^Florida/);
    expect(chapter1.some((title) => /Texas/.test(title))).toBe(false);
  });

  it("serves a default court's student no state's module, and refuses one asked for by id", async () => {
    const { id, client } = await signInPaidStudent(t);
    const titles = await titlesOf(client as RulesStudent['client'], id, 1);
    expect(titles.some((title) => /Texas|Florida|California/.test(title))).toBe(false);
    const [texasModule] = (await moduleIdsOf(t.db, 1, 'tx')).slice(-1);
    expect((await client.get(`/api/content/module/${String(texasModule)}`)).statusCode).toBe(404);
    expect((await client.get(`/api/content/topics/${String(texasModule)}`)).statusCode).toBe(404);
    expect((await client.get(`/api/content/video/${String(texasModule)}`)).statusCode).toBe(404);
    const completion = await client.post('/api/students/moduleComplete', { studentId: id, moduleId: texasModule });
    expect(completion.statusCode).toBe(404);
  });

  it("draws a Texas student's quizzes and final from the shared banks and Texas's, everyone else's from the shared ones", async () => {
    const content = await getCourseContent(t.db);
    const isTexas = (id: number) => content.questionById.get(id)?.question.edition === 'tx';
    expect(chapterBank(content, 1, 'tx').some(isTexas)).toBe(true);
    expect(chapterBank(content, 1, null).some(isTexas)).toBe(false);
    expect(chapterBank(content, 1, 'fl').some(isTexas)).toBe(false);
    expect(finalBanks(content, 'tx').flat().some(isTexas)).toBe(true);
    expect(finalBanks(content, null).flat().some(isTexas)).toBe(false);
    expect(finalBanks(content, 'ca').flat().some(isTexas)).toBe(false);
  });

  it("names the edition's course on a Texas student's certificate, and the shared course on everyone else's", async () => {
    const student = await texan();
    await recordCourseCompletion(t, student.id);
    const certificate = await onlyCertificateOf(t.db, student.id);
    expect((certificate.snapshot as { courseName: string }).courseName).toBe('Texas Driving Safety Course');
    const { id } = await signInPaidStudent(t);
    await recordCourseCompletion(t, id);
    expect(((await onlyCertificateOf(t.db, id)).snapshot as { courseName: string }).courseName).toBe(COURSE_NAME);
  });

  it("holds a Texas student's chapter quiz until the Texas modules of the chapter are complete too", async () => {
    const student = await texan();
    for (const moduleId of await moduleIdsOf(t.db, 1)) {
      await student.client.post('/api/students/moduleComplete', { studentId: student.id, moduleId });
    }
    const early = await student.client.get('/api/quiz/questions/1');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: { code: 'MODULES_INCOMPLETE' } });
    await completeModulesOf(student.client, t.db, student.id, 1);
    const drawn = await student.client.get('/api/quiz/questions/1');
    expect(drawn.statusCode, drawn.body).toBe(200);
    expect(drawn.json<Quiz>().questions).toHaveLength(10);
  });
});
