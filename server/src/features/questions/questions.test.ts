import { and, asc, eq, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminQuestion, AuditEntry, Quiz, QuizResult, ResultQuestion } from '@ts/contract';
import { answers, auditLog, questions, quizAttempts } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import {
  type ApiClient,
  answersFor,
  apiClient,
  completeModulesOf,
  signedInStaff,
  type StaffClient,
} from '../../testing/course.ts';
import { createCourt, createStudent, markStudentPaid } from '../../testing/factories.ts';
import { signInStudent } from '../../testing/sign-in.ts';

type Language = 'en' | 'es';

describe('modify questions', () => {
  let t: TestApp;
  let admin: StaffClient;
  let adminId: number;
  let superAdmin: ApiClient;
  /** Questions no test has used yet: each test edits its own, so the tests stay independent. */
  let unused: number[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedInStaff(t, 'admin');
    adminId = admin.member.id;
    superAdmin = await signedInStaff(t, 'super_admin');
    // Chapter 1 is kept for the quiz-result test; the others are only edited.
    const rows = await t.db
      .select({ id: questions.id })
      .from(questions)
      .where(notInArray(questions.chapterId, [1]))
      .orderBy(asc(questions.id));
    unused = rows.map((row) => row.id);
  });
  afterAll(async () => {
    await t.close();
  });

  function takeQuestionId(): number {
    const id = unused.shift();
    if (id === undefined) throw new Error('no unused questions left');
    return id;
  }

  async function adminQuestion(client: ApiClient, id: number): Promise<AdminQuestion> {
    const response = await client.get(`/api/admin/questions/${String(id)}`);
    expect(response.statusCode).toBe(200);
    return response.json<AdminQuestion>();
  }

  function correctOf(question: AdminQuestion) {
    const correct = question.answers.filter((answer) => answer.correct);
    expect(correct).toHaveLength(1);
    return correct[0]!;
  }

  async function auditRowsFor(entityType: string, entityId: number) {
    return t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, entityId)))
      .orderBy(asc(auditLog.id));
  }

  it('shows an admin a question with its answers in both languages and which one is correct', async () => {
    const id = takeQuestionId();
    const question = await adminQuestion(admin, id);
    const [row] = await t.db.select().from(questions).where(eq(questions.id, id));
    const key = await t.db.select().from(answers).where(eq(answers.questionId, id)).orderBy(asc(answers.position));
    expect(question).toEqual({
      id,
      chapter_id: row!.chapterId,
      question: row!.question,
      question_es: row!.questionEs,
      active: row!.active,
      answers: key.map((answer) => ({
        id: answer.id,
        content: answer.content,
        content_es: answer.contentEs,
        correct: answer.isCorrect,
      })),
    });
    correctOf(question);
  });

  it('lets super_admins and admins read and edit questions, and no other staff or student', async () => {
    const id = takeQuestionId();
    const question = await adminQuestion(admin, id);
    const answer = question.answers[0]!;
    const court = await createCourt(t.db);
    const student = await createStudent(t.db);
    await markStudentPaid(t.db, student.id);
    const callers: [string, ApiClient, number][] = [
      ['super_admin', superAdmin, 200],
      ['admin', admin, 200],
      ['clerk', await signedInStaff(t, 'clerk'), 403],
      ['court-limited admin', await signedInStaff(t, 'admin', court.id), 403],
      ['student', apiClient(t.app, await signInStudent(t.app, student)), 403],
    ];
    for (const [who, client, status] of callers) {
      const read = await client.get(`/api/admin/questions/${String(id)}`);
      const editedQuestion = await client.post(`/api/admin/edit/question/${String(id)}`, {
        content: `${question.question} (${who})`,
      });
      const editedAnswer = await client.post(`/api/admin/edit/answer/${String(answer.id)}`, {
        content: `${answer.content} (${who})`,
      });
      expect([who, read.statusCode, editedQuestion.statusCode, editedAnswer.statusCode]).toEqual([
        who,
        status,
        status,
        status,
      ]);
    }
    // Only the two allowed callers changed anything.
    const after = await adminQuestion(admin, id);
    expect(after.question).toBe(`${question.question} (admin)`);
    expect(after.answers[0]!.content).toBe(`${answer.content} (admin)`);
  });

  it('asks an anonymous caller to sign in', async () => {
    const id = takeQuestionId();
    const requests = [
      { method: 'GET' as const, url: `/api/admin/questions/${String(id)}` },
      { method: 'POST' as const, url: `/api/admin/edit/question/${String(id)}`, payload: { content: 'New text' } },
      { method: 'POST' as const, url: `/api/admin/edit/answer/${String(id)}`, payload: { content: 'New text' } },
    ];
    for (const request of requests) {
      expect((await t.app.inject(request)).statusCode).toBe(401);
    }
  });

  it('answers 404 for a question or answer that does not exist', async () => {
    expect((await admin.get('/api/admin/questions/999999')).statusCode).toBe(404);
    expect((await admin.post('/api/admin/edit/question/999999', { content: 'Text' })).statusCode).toBe(404);
    expect((await admin.post('/api/admin/edit/answer/999999', { content: 'Text' })).statusCode).toBe(404);
  });

  it('refuses empty texts with 400 and changes nothing', async () => {
    const id = takeQuestionId();
    const question = await adminQuestion(admin, id);
    const answerId = question.answers[0]!.id;
    const refused = [
      await admin.post(`/api/admin/edit/question/${String(id)}`, { content: '' }),
      await admin.post(`/api/admin/edit/question/${String(id)}`, { content: '   ' }),
      await admin.post(`/api/admin/edit/question/${String(id)}`, {}),
      await admin.post(`/api/admin/edit/answer/${String(answerId)}`, { content: '' }),
      await admin.post(`/api/admin/edit/answer/${String(answerId)}`, { content: ' \n ' }),
    ];
    expect(refused.map((response) => response.statusCode)).toEqual([400, 400, 400, 400, 400]);
    expect(await adminQuestion(admin, id)).toEqual(question);
    expect(await auditRowsFor('question', id)).toHaveLength(0);
    expect(await auditRowsFor('answer', answerId)).toHaveLength(0);
  });

  it('saves a question text, trimmed, with its Spanish text, and records the change in the audit log', async () => {
    const id = takeQuestionId();
    const before = await adminQuestion(admin, id);
    const response = await admin.post(`/api/admin/edit/question/${String(id)}`, {
      content: '  What must you do at a flashing red light?  ',
      content_es: '¿Qué debe hacer ante una luz roja intermitente?',
    });
    expect(response.statusCode).toBe(200);
    const saved = response.json<AdminQuestion>();
    expect(saved).toEqual({
      ...before,
      question: 'What must you do at a flashing red light?',
      question_es: '¿Qué debe hacer ante una luz roja intermitente?',
    });
    expect(await adminQuestion(admin, id)).toEqual(saved);

    const [entry, ...more] = await auditRowsFor('question', id);
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({
      staffId: adminId,
      action: 'edit_question',
      entityType: 'question',
      entityId: id,
      before: { question: before.question, question_es: before.question_es },
      after: {
        question: 'What must you do at a flashing red light?',
        question_es: '¿Qué debe hacer ante una luz roja intermitente?',
      },
      createdAt: t.clock.now(),
    });
  });

  it('leaves the Spanish text as it is when none is sent, and records only what changed', async () => {
    const id = takeQuestionId();
    await admin.post(`/api/admin/edit/question/${String(id)}`, { content: 'First text', content_es: 'Primer texto' });
    const response = await admin.post(`/api/admin/edit/question/${String(id)}`, { content: 'Second text' });
    expect(response.json<AdminQuestion>()).toMatchObject({ question: 'Second text', question_es: 'Primer texto' });
    const entries = await auditRowsFor('question', id);
    expect(entries.at(-1)).toMatchObject({ before: { question: 'First text' }, after: { question: 'Second text' } });
    expect(Object.keys(entries.at(-1)!.after as object)).toEqual(['question']);
  });

  it('writes no audit entry for a save that changes nothing', async () => {
    const id = takeQuestionId();
    const question = await adminQuestion(admin, id);
    const answer = question.answers[0]!;
    await admin.post(`/api/admin/edit/question/${String(id)}`, { content: question.question });
    await admin.post(`/api/admin/edit/answer/${String(answer.id)}`, { content: answer.content });
    expect(await auditRowsFor('question', id)).toHaveLength(0);
    expect(await auditRowsFor('answer', answer.id)).toHaveLength(0);
  });

  it('saves an answer text and records the change in the audit log', async () => {
    const id = takeQuestionId();
    const question = await adminQuestion(admin, id);
    const answer = question.answers[1]!;
    const response = await admin.post(`/api/admin/edit/answer/${String(answer.id)}`, {
      content: 'Stop, then go when it is safe',
      content_es: 'Deténgase y siga cuando sea seguro',
    });
    expect(response.statusCode).toBe(200);
    const saved = response.json<AdminQuestion>();
    expect(saved.answers.find((a) => a.id === answer.id)).toEqual({
      ...answer,
      content: 'Stop, then go when it is safe',
      content_es: 'Deténgase y siga cuando sea seguro',
    });
    expect(saved.answers.filter((a) => a.id !== answer.id)).toEqual(question.answers.filter((a) => a.id !== answer.id));
    const [entry, ...more] = await auditRowsFor('answer', answer.id);
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({
      staffId: adminId,
      action: 'edit_answer',
      entityType: 'answer',
      before: { content: answer.content, content_es: answer.content_es },
      after: { content: 'Stop, then go when it is safe', content_es: 'Deténgase y siga cuando sea seguro' },
    });
  });

  it('makes an answer the only correct one of its question, recording the switch', async () => {
    const id = takeQuestionId();
    const question = await adminQuestion(admin, id);
    const previous = correctOf(question);
    const chosen = question.answers.find((answer) => !answer.correct)!;
    const response = await admin.post(`/api/admin/edit/answer/${String(chosen.id)}`, {
      content: chosen.content,
      correct: true,
    });
    expect(response.statusCode).toBe(200);
    const saved = response.json<AdminQuestion>();
    expect(correctOf(saved).id).toBe(chosen.id);
    expect(saved.answers.find((answer) => answer.id === previous.id)?.correct).toBe(false);
    const key = await t.db.select().from(answers).where(eq(answers.questionId, id));
    expect(key.filter((answer) => answer.isCorrect).map((answer) => answer.id)).toEqual([chosen.id]);

    const [entry] = await auditRowsFor('answer', chosen.id);
    expect(entry).toMatchObject({
      action: 'edit_answer',
      before: { correct: false, correct_answer_id: previous.id },
      after: { correct: true, correct_answer_id: chosen.id },
    });
  });

  it('keeps the correct answer when it is saved again as correct', async () => {
    const id = takeQuestionId();
    const question = await adminQuestion(admin, id);
    const correct = correctOf(question);
    const response = await admin.post(`/api/admin/edit/answer/${String(correct.id)}`, {
      content: correct.content,
      correct: true,
    });
    expect(response.json<AdminQuestion>()).toEqual(question);
    expect(await auditRowsFor('answer', correct.id)).toHaveLength(0);
  });

  it('refuses to leave a question without a correct answer', async () => {
    const id = takeQuestionId();
    const question = await adminQuestion(admin, id);
    const correct = correctOf(question);
    const response = await admin.post(`/api/admin/edit/answer/${String(correct.id)}`, {
      content: 'Changed text that must not be saved',
      correct: false,
    });
    expect(response.statusCode).toBe(400);
    expect(await adminQuestion(admin, id)).toEqual(question);
    expect(await auditRowsFor('answer', correct.id)).toHaveLength(0);
  });

  it('leaves a question with exactly one correct answer when two admins choose different ones at once', async () => {
    const id = takeQuestionId();
    const question = await adminQuestion(admin, id);
    const [first, second] = question.answers.filter((answer) => !answer.correct);
    const otherAdmin = await signedInStaff(t, 'admin');
    const responses = await Promise.all([
      admin.post(`/api/admin/edit/answer/${String(first!.id)}`, { content: first!.content, correct: true }),
      otherAdmin.post(`/api/admin/edit/answer/${String(second!.id)}`, { content: second!.content, correct: true }),
    ]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);
    const key = await t.db.select().from(answers).where(eq(answers.questionId, id));
    expect(key.filter((answer) => answer.isCorrect)).toHaveLength(1);
  });

  describe('the question page’s one Save (decision 021)', () => {
    const saveAll = (client: ApiClient, question: AdminQuestion, overrides: Record<string, unknown> = {}) =>
      client.put(`/api/admin/questions/${String(question.id)}`, {
        content: question.question,
        content_es: question.question_es ?? '',
        answers: question.answers.map((answer) => ({
          id: answer.id,
          content: answer.content,
          content_es: answer.content_es ?? '',
        })),
        correct_answer_id: correctOf(question).id,
        ...overrides,
      });

    it('saves the question, its answers and the correct answer together, auditing each change', async () => {
      const question = await adminQuestion(admin, takeQuestionId());
      const chosen = question.answers.find((answer) => !answer.correct)!;
      const response = await saveAll(admin, question, {
        content: '  Which sign means stop?  ',
        answers: question.answers.map((answer) => ({
          id: answer.id,
          content: answer.id === chosen.id ? 'A red octagon' : answer.content,
          content_es: answer.content_es ?? '',
        })),
        correct_answer_id: chosen.id,
      });
      expect(response.statusCode, response.body).toBe(200);
      const saved = response.json<AdminQuestion>();
      expect(saved.question).toBe('Which sign means stop?');
      expect(saved.answers.find((answer) => answer.id === chosen.id)).toMatchObject({
        content: 'A red octagon',
        correct: true,
      });
      expect(saved.answers.filter((answer) => answer.correct)).toHaveLength(1);
      expect((await auditRowsFor('question', question.id)).map((row) => row.action)).toEqual(['edit_question']);
      const [answerEntry] = await auditRowsFor('answer', chosen.id);
      expect(answerEntry).toMatchObject({
        after: { content: 'A red octagon', correct: true, correct_answer_id: chosen.id },
      });
    });

    it('changes nothing when one answer sent is another question’s, or a text is empty', async () => {
      const question = await adminQuestion(admin, takeQuestionId());
      const other = await adminQuestion(admin, takeQuestionId());
      const foreign = await saveAll(admin, question, {
        content: 'A changed question that must not be saved',
        correct_answer_id: other.answers[0]!.id,
      });
      expect(foreign.statusCode).toBe(404);
      const empty = await saveAll(admin, question, {
        content: 'Another change that must not be saved',
        answers: question.answers.map((answer, index) => ({
          id: answer.id,
          content: index === 1 ? '   ' : answer.content,
          content_es: '',
        })),
      });
      expect(empty.statusCode).toBe(400);
      expect(await adminQuestion(admin, question.id)).toEqual(question);
      expect(await auditRowsFor('question', question.id)).toEqual([]);
    });

    it('is refused to a clerk and to a student', async () => {
      const question = await adminQuestion(admin, takeQuestionId());
      const clerk = await signedInStaff(t, 'clerk');
      expect((await saveAll(clerk, question, { content: 'Clerk edit' })).statusCode).toBe(403);
      expect((await adminQuestion(admin, question.id)).question).toBe(question.question);
    });
  });

  it('shows the edits to a super_admin in the audit log, newest first', async () => {
    const id = takeQuestionId();
    const question = await adminQuestion(admin, id);
    await admin.post(`/api/admin/edit/question/${String(id)}`, { content: 'Audited question' });
    t.clock.advance(1000);
    await admin.post(`/api/admin/edit/answer/${String(question.answers[0]!.id)}`, { content: 'Audited answer' });
    const response = await superAdmin.get('/api/admin/audit');
    expect(response.statusCode).toBe(200);
    const [newest, next] = response.json<{ rows: AuditEntry[] }>().rows;
    expect(newest).toMatchObject({
      staff_id: adminId,
      action: 'edit_answer',
      entity_type: 'answer',
      entity_id: question.answers[0]!.id,
      after: { content: 'Audited answer' },
    });
    expect(next).toMatchObject({
      action: 'edit_question',
      entity_type: 'question',
      entity_id: id,
      before: { question: question.question },
      after: { question: 'Audited question' },
    });
  });

  it('lists every question of the banks for the list page: id, chapter, text and state edition', async () => {
    const response = await admin.get('/api/content/questions');
    expect(response.statusCode).toBe(200);
    const list = response.json<{ id: number; chapter_id: number; question: string; edition: string | null }[]>();
    const rows = await t.db.select().from(questions);
    expect(list).toHaveLength(rows.length);
    // Chapters 1-4's quiz banks and the final's own (6).
    expect(new Set(list.map((question) => question.chapter_id))).toEqual(new Set([1, 2, 3, 4, 6]));
    const row = rows[0]!;
    expect(list.find((question) => question.id === row.id)).toEqual({
      id: row.id,
      chapter_id: row.chapterId,
      question: row.question,
      edition: null,
    });
    expect(new Set(list.map((question) => question.edition))).toEqual(new Set([null, 'ca', 'fl', 'tx']));
  });

  it('never changes a result already given, while a new draw shows the edited question', async () => {
    const student = await createStudent(t.db);
    await markStudentPaid(t.db, student.id);
    const client = apiClient(t.app, await signInStudent(t.app, student));
    await completeModulesOf(client, t.db, student.id, 1);

    const drawn = await client.get('/api/quiz/questions/1');
    const quiz = drawn.json<Quiz>();
    const submitted = await client.post('/api/quiz/score', {
      studentId: student.id,
      chapter: 1,
      attemptId: quiz.attemptId,
      questions: await answersFor(t.db, quiz, 3),
    });
    expect(submitted.statusCode).toBe(200);
    const given = submitted.json<QuizResult>();
    expect(given).toMatchObject({ status: 'FAIL', score: 3 });
    const [storedBefore] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, quiz.attemptId));

    // The admin rewrites the first question (it was answered correctly) and makes another answer correct.
    const target = await adminQuestion(admin, quiz.questions[0]!.id);
    const oldCorrect = correctOf(target);
    const newCorrect = target.answers.find((answer) => !answer.correct)!;
    await admin.post(`/api/admin/edit/question/${String(target.id)}`, {
      content: 'Edited after the result was given',
      content_es: 'Editada después del resultado',
    });
    await admin.post(`/api/admin/edit/answer/${String(newCorrect.id)}`, {
      content: 'The new right answer',
      correct: true,
    });

    const [storedAfter] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, quiz.attemptId));
    expect(storedAfter).toEqual(storedBefore);
    expect(storedAfter).toMatchObject({ score: 3, passed: false });
    const result = storedAfter!.result as Record<Language, ResultQuestion[]>;
    const shown = result.en.find((question) => question.id === target.id)!;
    expect(shown.question).toBe(target.question);
    expect(shown.question).toBe(given.questionDisplay.find((question) => question.id === target.id)?.question);
    expect(shown.answers.filter((answer) => answer.correct).map((answer) => answer.id)).toEqual([oldCorrect.id]);
    expect(shown.answers.find((answer) => answer.id === newCorrect.id)?.content).toBe(newCorrect.content);

    // Keep only this attempt's questions in the bank, so the retake draws the edited one again.
    await t.db
      .update(questions)
      .set({ active: false })
      .where(
        and(
          eq(questions.chapterId, 1),
          notInArray(
            questions.id,
            quiz.questions.map((question) => question.id),
          ),
        ),
      );
    const retake = (await client.get('/api/quiz/questions/1')).json<Quiz>();
    expect(retake.attemptId).not.toBe(quiz.attemptId);
    const redrawn = retake.questions.find((question) => question.id === target.id);
    expect(redrawn?.question).toBe('Edited after the result was given');
    expect(redrawn?.answers.find((answer) => answer.id === newCorrect.id)?.content).toBe('The new right answer');
    const spanish = (await client.get('/api/quiz/questions/1', { 'accept-language': 'es' })).json<Quiz>();
    expect(spanish.questions.find((question) => question.id === target.id)?.question).toBe(
      'Editada después del resultado',
    );

    // The retake is graded against the new answer key.
    const graded = await client.post('/api/quiz/score', {
      studentId: student.id,
      chapter: 1,
      attemptId: retake.attemptId,
      questions: retake.questions.map((question) => ({
        question: question.id,
        answer: question.id === target.id ? newCorrect.id : question.answers[0]!.id,
      })),
    });
    const regraded = graded.json<QuizResult>().questionDisplay.find((question) => question.id === target.id)!;
    expect(regraded.answers.find((answer) => answer.correct)?.id).toBe(newCorrect.id);
    expect(regraded.answers.find((answer) => answer.id === newCorrect.id)?.selected).toBe(true);
  });
});
