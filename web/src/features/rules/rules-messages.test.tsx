// @vitest-environment happy-dom
import { useTranslation } from '../../lib/i18n.ts';
import { describe, expect, it } from 'vitest';
import type { Quiz, StudentRules } from '@ts/contract';
import { ApiError } from '../../lib/api.ts';
import { render, settled, stubApi } from '../../testing/page.tsx';
import {
  EMPTY_REGISTRATION,
  isAcceptableCourtDueDate,
  RegistrationFormSchema,
} from '../registration/registration-form.tsx';
import { DeadlineNotice, QuizInstructions, rulesRefusalText } from './rules-messages.tsx';
import { strictRulesWith } from '../../testing/rules.ts';

const quiz = (overrides: Partial<Quiz>): Quiz => ({
  attemptId: 1,
  chapter: 1,
  passMark: 7,
  questionCount: 10,
  attemptsAllowed: null,
  specRules: true,
  questions: [],
  ...overrides,
});

describe('the quiz instruction', () => {
  it("is the spec's sentence word for word under the spec's numbers", () => {
    const page = render(<QuizInstructions quiz={quiz({})} />);
    expect(page.textContent).toBe(
      'Choose the best answer for each question below. You must answer 7 out of 10 (final: 14 out of 20) correctly to pass. You may retake this quiz as many times as necessary.',
    );
  });

  it("states the profile's pass mark and question count, and the attempts when they are limited", () => {
    const final = render(
      <QuizInstructions
        quiz={quiz({ chapter: 6, passMark: 15, questionCount: 20, attemptsAllowed: 2, specRules: false })}
      />,
    );
    expect(final.textContent).toBe(
      'Choose the best answer for each question below. You must answer 15 out of 20 correctly to pass. You have 2 attempts in all.',
    );
    const chapter = render(<QuizInstructions quiz={quiz({ passMark: 8, specRules: false })} />);
    expect(chapter.textContent).toBe(
      'Choose the best answer for each question below. You must answer 8 out of 10 correctly to pass. You may retake this quiz as many times as necessary.',
    );
  });
});

describe("the rules' refusals", () => {
  function Refusal({ error, final = false }: { error: unknown; final?: boolean }) {
    const { t } = useTranslation();
    return <p>{rulesRefusalText(error, t, { final }) ?? 'none'}</p>;
  }

  it('says no attempts are left, when the next attempt opens, and that the window has ended', () => {
    const noneLeft = new ApiError(409, 'NO_ATTEMPTS_LEFT', 'x', { attempts: 2 });
    expect(render(<Refusal error={noneLeft} />).textContent).toBe(
      'You have used all 2 attempts allowed for this exam. Please contact the school.',
    );
    const wait = new ApiError(409, 'ATTEMPT_WAIT', 'x', { opens_at: '2027-01-23T18:00:00Z' });
    // On the school's clock (America/Los_Angeles), whatever the reader's own.
    expect(render(<Refusal error={wait} final />).textContent?.replace(/\s/g, ' ')).toBe(
      'You can take the final exam again from Jan 23, 2027, 10:00 AM PST.',
    );
    const closed = new ApiError(403, 'COMPLETION_WINDOW_CLOSED', 'x', { ended_on: '2027-01-30' });
    expect(render(<Refusal error={closed} />).textContent).toBe(
      'The time allowed to complete this course ended on January 30, 2027. Please contact the school.',
    );
    expect(render(<Refusal error={new ApiError(409, 'MODULES_INCOMPLETE', 'x')} />).textContent).toBe('none');
  });
});

describe('the deadline notice on the home page', () => {
  const rules = (overrides: Partial<StudentRules>): StudentRules =>
    strictRulesWith({ deadline: '2027-01-30', ...overrides });

  const answerRules = (body: StudentRules) => stubApi(() => ({ body })).fetch;

  it('warns from the warning days on, and says nothing before', async () => {
    const fetchMock = answerRules(rules({ deadlineWarning: true }));
    const page = render(<DeadlineNotice studentId={8} />);
    await settled();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/students/8/rules');
    expect(page.querySelector('[role=status]')?.textContent).toBe('Please finish the course by January 30, 2027.');

    answerRules(rules({}));
    const early = render(<DeadlineNotice studentId={9} />);
    await settled();
    expect(early.textContent).toBe('');
  });

  it('says the time has ended once the window is closed', async () => {
    answerRules(rules({ deadlineWarning: true, closedOn: '2027-01-30' }));
    const page = render(<DeadlineNotice studentId={8} />);
    await settled();
    expect(page.querySelector('[role=alert]')?.textContent).toBe(
      'The time allowed to complete this course ended on January 30, 2027. Please contact the school.',
    );
  });

  it('asks nothing without a student', async () => {
    const fetchMock = answerRules(rules({ deadlineWarning: true }));
    const page = render(<DeadlineNotice studentId={null} />);
    await settled();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(page.textContent).toBe('');
  });
});

describe('the court due date on the registration form', () => {
  it('is sent only when given', () => {
    const filled = {
      ...EMPTY_REGISTRATION,
      first_name: 'Ana',
      last_name: 'Garcia',
      email: 'ana@example.com',
      dl_number: 'D1234567',
      dob: '04/15/1990',
      address: '12 Elm Street',
      city: 'Sacramento',
      state: 'CA',
      zip: '95814',
      court: '7',
    };
    expect(RegistrationFormSchema.parse(filled).court_due_date).toBeUndefined();
    expect(JSON.stringify(RegistrationFormSchema.parse(filled))).not.toContain('court_due_date');
    expect(RegistrationFormSchema.parse({ ...filled, court_due_date: '01/05/2099' })).toMatchObject({
      court: 7,
      court_due_date: '01/05/2099',
    });
  });

  it('accepts empty, or a real date from today on', () => {
    const today = '2026-12-01'; // the school's calendar day
    expect(isAcceptableCourtDueDate('', today)).toBe(true);
    expect(isAcceptableCourtDueDate('12/01/2026', today)).toBe(true);
    expect(isAcceptableCourtDueDate('11/30/2026', today)).toBe(false);
    expect(isAcceptableCourtDueDate('02/30/2027', today)).toBe(false);
    expect(isAcceptableCourtDueDate('01/05/202', today)).toBe(false);
  });
});
