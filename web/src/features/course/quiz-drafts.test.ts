// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Quiz } from '@ts/contract';
import { forgetQuizDraft, readQuizDraft, saveQuizDraft } from './quiz-drafts.ts';

const STUDENT = 3;

/** Chapter 1's open attempt 41: two questions of two answers each. */
const ATTEMPT: Pick<Quiz, 'attemptId' | 'chapter' | 'questions'> = {
  attemptId: 41,
  chapter: 1,
  questions: [
    {
      id: 7,
      chapter_id: 1,
      question: 'What does a red light mean?',
      answers: [
        { id: 70, content: 'Stop' },
        { id: 71, content: 'Go' },
      ],
    },
    {
      id: 8,
      chapter_id: 1,
      question: 'What does a yellow light mean?',
      answers: [
        { id: 80, content: 'Slow down and stop if safe' },
        { id: 81, content: 'Speed up' },
      ],
    },
  ],
};

const storedText = () => sessionStorage.getItem('quiz-draft:3:1');

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('a quiz draft (answers kept through a reload)', () => {
  it('gives back the answers saved for the same attempt', () => {
    saveQuizDraft(STUDENT, ATTEMPT, { 7: 71, 8: 80 });
    expect(readQuizDraft(STUDENT, ATTEMPT)).toEqual({ 7: 71, 8: 80 });
  });

  it('gives back nothing when nothing was saved', () => {
    expect(readQuizDraft(STUDENT, ATTEMPT)).toEqual({});
  });

  it("never gives one student's answers to another, nor one chapter's to another", () => {
    saveQuizDraft(STUDENT, ATTEMPT, { 7: 71 });
    expect(readQuizDraft(4, ATTEMPT)).toEqual({});
    expect(readQuizDraft(STUDENT, { ...ATTEMPT, chapter: 2 })).toEqual({});
  });

  it('gives back nothing for another attempt of the chapter, whose first save forgets the old draft', () => {
    saveQuizDraft(STUDENT, ATTEMPT, { 7: 71 });
    const next = { ...ATTEMPT, attemptId: 42 };
    expect(readQuizDraft(STUDENT, next)).toEqual({});
    saveQuizDraft(STUDENT, next, {});
    expect(storedText()).toBeNull();
    expect(readQuizDraft(STUDENT, ATTEMPT)).toEqual({});
  });

  it('is forgotten once its attempt is graded', () => {
    saveQuizDraft(STUDENT, ATTEMPT, { 7: 71 });
    forgetQuizDraft(STUDENT, 1);
    expect(storedText()).toBeNull();
    expect(readQuizDraft(STUDENT, ATTEMPT)).toEqual({});
  });

  it('keeps nothing while no answer is chosen', () => {
    saveQuizDraft(STUDENT, ATTEMPT, {});
    expect(storedText()).toBeNull();
  });

  it('gives back only answers whose question and answer are in the attempt shown', () => {
    sessionStorage.setItem(
      'quiz-draft:3:1',
      JSON.stringify({
        attemptId: 41,
        // 7: an answer of question 8; 9: a question not in the attempt.
        answers: { 7: 80, 8: 81, 9: 90 },
      }),
    );
    expect(readQuizDraft(STUDENT, ATTEMPT)).toEqual({ 8: 81 });
    sessionStorage.setItem('quiz-draft:3:1', JSON.stringify({ attemptId: 41, answers: { 7: '70', 8: null } }));
    expect(readQuizDraft(STUDENT, ATTEMPT)).toEqual({});
  });

  it.each([
    ['text that is not JSON', '{"attemptId": 41, "answers": {"7": 70'],
    ['JSON of another shape', JSON.stringify([41, { 7: 70 }])],
    ['an attempt id that is not a number', JSON.stringify({ attemptId: '41', answers: { 7: 70 } })],
    ['no answers', JSON.stringify({ attemptId: 41 })],
    ['null', 'null'],
  ])('gives back nothing for %s', (_, text) => {
    sessionStorage.setItem('quiz-draft:3:1', text);
    expect(readQuizDraft(STUDENT, ATTEMPT)).toEqual({});
  });

  it('leaves the quiz working when the browser refuses storage', () => {
    const refuse = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    vi.stubGlobal('sessionStorage', { getItem: refuse, setItem: refuse, removeItem: refuse });
    expect(() => saveQuizDraft(STUDENT, ATTEMPT, { 7: 71 })).not.toThrow();
    expect(readQuizDraft(STUDENT, ATTEMPT)).toEqual({});
    expect(() => forgetQuizDraft(STUDENT, 1)).not.toThrow();
  });
});
