// @vitest-environment happy-dom
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { AdminQuestion, AuditEntry } from '@ts/contract';
import {
  bodyOf,
  buttonsNamed,
  byLabel,
  click,
  render,
  settled,
  setValue,
  stubApi,
  submit,
  type FetchCall,
} from '../../testing/page.tsx';
import { AuditPage } from './audit-page.tsx';
import { QuestionEditPage } from './question-edit-page.tsx';
import { matchesSearch, previewOf, QuestionsPage } from './questions-page.tsx';

/** Renders the page at `at` under the route `path` and waits for its calls to be answered. */
async function show(at: string, path: string, page: ReactNode): Promise<HTMLElement> {
  const container = render(page, { at, path });
  await settled();
  return container;
}

const liveTexts = (container: HTMLElement) =>
  [...container.querySelectorAll('[aria-live=polite]')].map((region) => region.textContent).filter(Boolean);

describe('Modify Questions list (spec 2, 9)', () => {
  const long = `${'A driver must yield '.repeat(7)}to pedestrians.`;

  it('cuts a question to its first 120 characters and marks the cut with an ellipsis', () => {
    expect(previewOf('Short question?')).toBe('Short question?');
    expect(previewOf('x'.repeat(120))).toBe('x'.repeat(120));
    expect(previewOf('x'.repeat(121))).toBe(`${'x'.repeat(120)}…`);
    expect(previewOf(long)).toBe(`${long.slice(0, 120).trimEnd()}…`);
  });

  it('groups the questions under a heading per chapter, each linking to its edit page', async () => {
    stubApi(() => ({
      status: 200,
      body: [
        { id: 3, chapter_id: 2, question: 'Second chapter question?', edition: null },
        { id: 1, chapter_id: 1, question: long, edition: null },
        { id: 2, chapter_id: 1, question: 'When may you pass on the right?', edition: null },
      ],
    }));
    const page = await show('/admin/modify-questions', '/admin/modify-questions', <QuestionsPage />);
    expect([...page.querySelectorAll('h2')].map((heading) => heading.textContent)).toEqual(['Chapter 1', 'Chapter 2']);
    const links = [...page.querySelectorAll('section')].map((section) =>
      [...section.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('href')]),
    );
    expect(links).toEqual([
      [
        [previewOf(long), '/admin/modify-questions/1'],
        ['When may you pass on the right?', '/admin/modify-questions/2'],
      ],
      [['Second chapter question?', '/admin/modify-questions/3']],
    ]);
  });

  it('finds a question by words in any order, without case or accents, or by its number', () => {
    const question = { id: 123, question: 'When must you yield at a Señal de alto?' };
    expect(matchesSearch(question, 'senal YIELD')).toBe(true);
    expect(matchesSearch(question, '#123')).toBe(true);
    expect(matchesSearch(question, '123')).toBe(true);
    expect(matchesSearch(question, '12')).toBe(false);
    expect(matchesSearch(question, 'merge')).toBe(false);
    expect(matchesSearch(question, '   ')).toBe(true);
  });

  it('filters the list by chapter and search from the address, and says how many are shown', async () => {
    stubApi(() => ({
      status: 200,
      body: [
        { id: 1, chapter_id: 1, question: 'When may you pass on the right?', edition: null },
        { id: 2, chapter_id: 1, question: 'What does a yellow light mean?', edition: null },
        { id: 3, chapter_id: 2, question: 'When may you pass a school bus?', edition: null },
      ],
    }));
    const page = await show('/admin/modify-questions?q=pass&chapter=1', '/admin/modify-questions', <QuestionsPage />);
    expect([...page.querySelectorAll('section a')].map((link) => link.textContent)).toEqual([
      'When may you pass on the right?',
    ]);
    expect(page.querySelector('[role=status]')?.textContent).toBe('Showing 1 of 3 questions');
    expect(byLabel(page, 'Search questions').value).toBe('pass');
    expect(byLabel(page, 'Chapter').value).toBe('1');
  });

  it("filters by state edition: the shared course's questions or one state's own (decision 051)", async () => {
    stubApi(() => ({
      status: 200,
      body: [
        { id: 1, chapter_id: 1, question: 'When may you pass on the right?', edition: null },
        { id: 2, chapter_id: 1, question: 'What does Texas law say about racing?', edition: 'tx' },
        { id: 3, chapter_id: 1, question: 'What does Florida law say about Move Over?', edition: 'fl' },
      ],
    }));
    const texas = await show('/admin/modify-questions?edition=tx', '/admin/modify-questions', <QuestionsPage />);
    expect([...texas.querySelectorAll('section a')].map((link) => link.textContent)).toEqual([
      'What does Texas law say about racing?',
    ]);
    expect(byLabel(texas, 'Edition').value).toBe('tx');
    const shared = await show('/admin/modify-questions?edition=shared', '/admin/modify-questions', <QuestionsPage />);
    expect([...shared.querySelectorAll('section a')].map((link) => link.textContent)).toEqual([
      'When may you pass on the right?',
    ]);
  });

  it('says so when the questions cannot be loaded', async () => {
    stubApi(() => ({ status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } }));
    const page = await show('/admin/modify-questions', '/admin/modify-questions', <QuestionsPage />);
    expect(page.querySelector('[role=alert]')?.textContent).toBe('Error getting questions');
  });
});

describe('Edit question page (spec 2, 7, 8)', () => {
  const question: AdminQuestion = {
    id: 7,
    chapter_id: 1,
    question: 'What does a red light mean?',
    question_es: null,
    active: true,
    answers: [
      { id: 70, content: 'Stop', content_es: 'Alto', correct: true },
      { id: 71, content: 'Go', content_es: null, correct: false },
      { id: 72, content: 'Speed up', content_es: null, correct: false },
    ],
  };

  /** The page's calls answered: the question, and its one Save (PUT) with `saveStatus`. */
  function stubQuestionApi(saveStatus: number) {
    return stubApi((_url, init) => {
      if (init?.method === 'PUT') {
        return saveStatus === 200
          ? { status: 200, body: question }
          : { status: saveStatus, body: { error: { code: 'INTERNAL', message: 'x' } } };
      }
      return { status: 200, body: question };
    });
  }

  const renderEdit = () =>
    show('/admin/modify-questions/7', '/admin/modify-questions/:questionId', <QuestionEditPage />);

  const saves = (calls: FetchCall[]) => calls.filter(([, init]) => init?.method === 'PUT');
  /** What the one Save sends when nothing is changed. */
  const unchanged = {
    content: 'What does a red light mean?',
    content_es: '',
    answers: [
      { id: 70, content: 'Stop', content_es: 'Alto' },
      { id: 71, content: 'Go', content_es: '' },
      { id: 72, content: 'Speed up', content_es: '' },
    ],
    correct_answer_id: 70,
  };

  async function save(page: HTMLElement) {
    const buttons = buttonsNamed(page, 'Save');
    expect(buttons).toHaveLength(1);
    await submit(buttons[0]?.closest('form'));
    await settled();
  }

  it('labels the question, every answer and the correct-answer choice, and links back to the list', async () => {
    stubQuestionApi(200);
    const page = await renderEdit();
    const labels = [...page.querySelectorAll('label')].map((label) => label.textContent);
    expect(labels).toEqual(
      expect.arrayContaining(['Question text', 'Answer 1', 'Answer 2', 'Answer 3', 'Answer 1: Stop']),
    );
    expect(page.querySelector<HTMLTextAreaElement>('textarea[name=content]')?.value).toBe(
      'What does a red light mean?',
    );
    expect(page.querySelector('legend')?.textContent).toBe('Correct answer');
    const checked = page.querySelector<HTMLInputElement>('input[type=radio]:checked');
    expect(checked?.closest('label')?.textContent).toBe('Answer 1: Stop');
    expect(page.querySelector('a')?.getAttribute('href')).toBe('/admin/modify-questions');
  });

  it("saves the question and its answers with one Save and says 'Question saved!'", async () => {
    const api = stubQuestionApi(200);
    const page = await renderEdit();
    await setValue(page.querySelector('textarea[name=content]')!, 'What does a flashing red light mean?');
    await save(page);
    const [call] = saves(api.calls());
    expect(call?.[0]).toBe('/api/admin/questions/7');
    expect(bodyOf(call)).toEqual({ ...unchanged, content: 'What does a flashing red light mean?' });
    expect(liveTexts(page)).toEqual(['Question saved!']);
  });

  it("says 'Error saving question. Please try again' when the server refuses", async () => {
    stubQuestionApi(500);
    const page = await renderEdit();
    await setValue(page.querySelector('textarea[name=content]')!, 'Changed');
    await save(page);
    expect(liveTexts(page)).toEqual(['Error saving question. Please try again']);
  });

  it("says 'Answer saved!' when an answer changed, and 'Error saving answer. Please try again' when it could not be", async () => {
    const api = stubQuestionApi(200);
    const page = await renderEdit();
    await setValue(page.querySelector('input[name="answers.1.content"]')!, 'Go ahead');
    await save(page);
    expect(bodyOf(saves(api.calls())[0])).toEqual({
      ...unchanged,
      answers: [unchanged.answers[0], { id: 71, content: 'Go ahead', content_es: '' }, unchanged.answers[2]],
    });
    expect(liveTexts(page)).toEqual(['Answer saved!']);

    stubQuestionApi(400);
    await setValue(page.querySelector('input[name="answers.2.content"]')!, 'Speed up a lot');
    await save(page);
    expect(liveTexts(page)).toEqual(['Error saving answer. Please try again']);
  });

  it('marks an emptied answer and sends nothing', async () => {
    const api = stubQuestionApi(200);
    const page = await renderEdit();
    const answer = page.querySelector<HTMLInputElement>('input[name="answers.1.content"]')!;
    await setValue(answer, '   ');
    await save(page);
    expect(saves(api.calls())).toEqual([]);
    expect(answer.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(answer);
  });

  it('makes the chosen answer the correct one when the question is saved', async () => {
    const api = stubQuestionApi(200);
    const page = await renderEdit();
    const radios = page.querySelectorAll<HTMLInputElement>('input[type=radio]');
    await click(radios[2]);
    await settled();
    expect(saves(api.calls())).toEqual([]);
    expect(radios[2]?.checked).toBe(true);
    await save(page);
    expect(bodyOf(saves(api.calls())[0])).toEqual({ ...unchanged, correct_answer_id: 72 });
    expect(liveTexts(page)).toEqual(['Answer saved!']);
  });

  it('says the question does not exist for an unknown id', async () => {
    stubApi(() => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'x' } } }));
    const page = await renderEdit();
    expect(page.querySelector('[role=alert]')?.textContent).toBe('This question does not exist.');
  });
});

describe('Audit log page', () => {
  const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
    id: 1,
    at: '2026-11-22T15:00:00.000Z',
    staff_id: 1,
    staff_name: 'Boss',
    staff_username: 'boss',
    action: 'mark_paid',
    entity_type: 'student',
    entity_id: 42,
    before: { payment_at: null },
    after: { payment_at: '2026-11-22T15:00:00.000Z' },
    ...overrides,
  });

  it('shows who did what and when, newest first as the server sends it, with a link to the student', async () => {
    stubApi(() => ({
      status: 200,
      body: {
        rows: [
          entry({ id: 2, action: 'edit_question', entity_type: 'question', entity_id: 7, before: { question: 'Old' } }),
          entry({}),
        ],
        total: 2,
        page: 1,
        pageSize: 50,
      },
    }));
    const page = await show('/admin/audit', '/admin/audit', <AuditPage />);
    const headers = [...page.querySelectorAll('th[scope=col]')].map((cell) => cell.textContent);
    expect(headers).toEqual(['When', 'Who', 'Action', 'What', 'Before', 'After']);
    const rows = [...page.querySelectorAll('tbody tr')].map((row) =>
      [...row.querySelectorAll('td')].slice(1, 5).map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['Bossboss', 'Edited a question', 'Question #7', '{"question":"Old"}'],
      ['Bossboss', 'Marked as paid', 'Student #42', '{"payment_at":null}'],
    ]);
    expect(page.querySelector('tbody tr:nth-child(2) a')?.getAttribute('href')).toBe('/admin/students/42');
    expect(page.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-22T15:00:00.000Z');
    expect(buttonsNamed(page, 'Previous')).toHaveLength(0);
    expect(buttonsNamed(page, 'Next')).toHaveLength(0);
  });

  it('pages with Previous and Next', async () => {
    const api = stubApi((url) => ({
      status: 200,
      body: { rows: [entry({})], total: 120, page: url.includes('page=3') ? 3 : 2, pageSize: 50 },
    }));
    const page = await show('/admin/audit?page=2', '/admin/audit', <AuditPage />);
    expect(api.calls()[0]?.[0]).toBe('/api/admin/audit?page=2');
    expect(page.textContent).toContain('Page 2 of 3');
    expect(buttonsNamed(page, 'Previous')).toHaveLength(1);
    await click(buttonsNamed(page, 'Next')[0]);
    await settled();
    expect(api.calls().at(-1)?.[0]).toBe('/api/admin/audit?page=3');
    expect(buttonsNamed(page, 'Next')).toHaveLength(0);
  });

  it('tells other staff plainly that the audit log is not theirs', async () => {
    stubApi(() => ({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'x' } } }));
    const page = await show('/admin/audit', '/admin/audit', <AuditPage />);
    expect(page.querySelector('[role=alert]')?.textContent).toBe('Only a super admin can see the audit log.');
  });
});
