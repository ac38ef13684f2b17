// @vitest-environment happy-dom
import { act, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { AdminStudent, AdminStudentRow } from '@ts/contract';
import {
  buttonNamed,
  byLabel,
  click as clickOnly,
  render,
  settled,
  stubApi,
  typeInto,
  unmountAll,
  waitFor,
  type Answer,
  type FetchCall,
} from '../../testing/page.tsx';
import { StudentDetailPage } from './student-detail-page.tsx';
import { StudentSignUpPage } from './student-sign-up-page.tsx';
import { STUDENT_SEARCH_DELAY_MS, StudentsPage } from './students-page.tsx';

const COURTS = [
  { id: 7, name: 'Alameda Traffic Court', county_id: 1, state: 'CA' },
  { id: 9, name: 'Berkeley Traffic Court', county_id: 1, state: 'CA' },
];

/** Answers every API call but the court list with `answer(url, init)`; `calls()` leaves the court list out. */
function answerStudents(answer: (url: string, init?: RequestInit) => Answer) {
  const api = stubApi((url, init) => (url.startsWith('/api/public/courts') ? { body: COURTS } : answer(url, init)));
  return { calls: () => api.calls().filter(([url]) => !url.startsWith('/api/public/')) };
}

function signInAs(type: 'admin' | 'clerk' | 'super_admin', courtId: number | null = null) {
  localStorage.setItem(
    'user',
    JSON.stringify({ id: 5, type, name: 'Ada', court_id: courtId, payment_at: null, completed_at: null }),
  );
}

/** Shows where the app went and the navigation state it was given. */
function Destination() {
  const location = useLocation();
  const student = (location.state as { student?: AdminStudentRow } | null)?.student;
  return (
    <p data-testid="destination">
      {location.pathname} {student ? `state:${student.first_name}` : 'no state'}
    </p>
  );
}

function renderAt(page: ReactNode, at: string, path: string): HTMLElement {
  return render(page, { at, path, elsewhere: <Destination /> });
}

/** Clicks and waits for what the click started. */
async function click(element: Element | null | undefined) {
  await clickOnly(element);
  await settled();
}
const queryOf = (call: FetchCall | undefined) =>
  Object.fromEntries(new URL(String(call?.[0]), 'http://x').searchParams);

const row = (id: number, overrides: Partial<AdminStudentRow> = {}): AdminStudentRow => ({
  id,
  first_name: 'Maria',
  last_name: `Lopez${String(id)}`,
  email: `maria${String(id)}@example.com`,
  dl_number: `D${String(id)}`,
  court: 7,
  court_name: 'Alameda Traffic Court',
  payment_at: null,
  completed_at: null,
  created_at_formatted: 'November 22, 2026',
  created_at: '2026-11-22T18:00:00.000Z',
  ...overrides,
});

describe('Students page (spec 2 /admin/students)', () => {
  const listAnswer = (rows: AdminStudentRow[], total: number, page = 1) => ({
    status: 200,
    body: { rows, total, page, pageSize: 20 },
  });

  it('shows the spec’s eight columns and the payment, a completion date or In Progress, and the page count', async () => {
    signInAs('admin');
    answerStudents(() =>
      listAnswer([row(2, { completed_at: '2026-11-20T12:00:00Z', payment_at: '2026-11-24T07:30:00Z' }), row(1)], 25),
    );
    const page = renderAt(<StudentsPage />, '/admin/students', '/admin/students');
    await settled();

    // The sort arrows are drawn for the eye only.
    const headingText = (cell: Element) =>
      [...cell.childNodes]
        .flatMap((node) =>
          node instanceof Element && node.querySelector('[aria-hidden]') ? [...node.childNodes] : [node],
        )
        .filter((node) => !(node instanceof Element && node.getAttribute('aria-hidden') === 'true'))
        .map((node) => node.textContent)
        .join('');
    const headings = [...page.querySelectorAll('th[scope=col]')].map(headingText);
    expect(headings).toEqual([
      'ID',
      'First name',
      'Last name',
      'Email',
      "Driver's license",
      'Court',
      'Payment',
      'Completed',
      'Registered',
    ]);
    // Name, court, completed and registered sort; the list is newest first to begin with.
    const sorted = [...page.querySelectorAll('th[scope=col]')].map((cell) => cell.getAttribute('aria-sort'));
    expect(sorted).toEqual([null, 'none', null, null, null, 'none', null, 'none', 'descending']);
    const cells = [...page.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((cell) => cell.textContent),
    );
    expect(cells).toEqual([
      [
        '2',
        'Maria',
        'Lopez2',
        'maria2@example.com',
        'D2',
        'Alameda Traffic Court',
        // 07:30 UTC on the 24th is still the 23rd at the school (America/Los_Angeles).
        'Paid 11/23/2026',
        '11/20/2026',
        '11/22/2026',
      ],
      [
        '1',
        'Maria',
        'Lopez1',
        'maria1@example.com',
        'D1',
        'Alameda Traffic Court',
        'Not paid',
        'In Progress',
        '11/22/2026',
      ],
    ]);
    expect(page.textContent).toContain('Page 1 of 2');
    expect(buttonNamed(page, 'Previous')).toBeUndefined();
    expect(buttonNamed(page, 'Next')).toBeDefined();
  });

  it('asks for page 2 on Next, then offers Previous and no Next on the last page', async () => {
    signInAs('admin');
    const api = answerStudents((url) =>
      url.includes('page=2') ? listAnswer([row(1)], 21, 2) : listAnswer([row(2)], 21),
    );
    const page = renderAt(<StudentsPage />, '/admin/students', '/admin/students');
    await settled();
    expect(queryOf(api.calls()[0])).toEqual({ page: '1' });

    await click(buttonNamed(page, 'Next'));

    expect(queryOf(api.calls().at(-1))).toEqual({ page: '2' });
    expect(page.textContent).toContain('Page 2 of 2');
    expect(buttonNamed(page, 'Previous')).toBeDefined();
    expect(buttonNamed(page, 'Next')).toBeUndefined();
  });

  it('sorts by a column when its header is pressed, A to Z first, then the other way, back on page 1', async () => {
    signInAs('admin');
    const api = answerStudents(() => listAnswer([row(1)], 1));
    const page = renderAt(<StudentsPage />, '/admin/students?page=2', '/admin/students');
    await settled();
    const courtHeader = () => [...page.querySelectorAll('th[scope=col]')][5]!;

    await click(courtHeader().querySelector('button'));
    await settled();
    expect(queryOf(api.calls().at(-1))).toEqual({ page: '1', sort: 'court', order: 'asc' });
    expect(courtHeader().getAttribute('aria-sort')).toBe('ascending');

    await click(courtHeader().querySelector('button'));
    await settled();
    expect(queryOf(api.calls().at(-1))).toEqual({ page: '1', sort: 'court', order: 'desc' });
    expect(courtHeader().getAttribute('aria-sort')).toBe('descending');
  });

  it('searches once typing pauses for 300 ms, with one request, back on page 1', async () => {
    signInAs('admin');
    const api = answerStudents(() => listAnswer([row(1)], 1));
    const page = renderAt(<StudentsPage />, '/admin/students?page=3', '/admin/students');
    await settled();
    expect(queryOf(api.calls()[0])).toEqual({ page: '3' });

    // The debounce's clock is the test's.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await typeInto(page, "Search by name, email or driver's license", 'ma');
      act(() => vi.advanceTimersByTime(50));
      await typeInto(page, "Search by name, email or driver's license", 'maria ');
      act(() => vi.advanceTimersByTime(STUDENT_SEARCH_DELAY_MS - 100));
      expect(api.calls()).toHaveLength(1);

      act(() => vi.advanceTimersByTime(200));
    } finally {
      vi.useRealTimers();
    }
    await settled();
    expect(api.calls()).toHaveLength(2);
    expect(queryOf(api.calls()[1])).toEqual({ searchTerm: 'maria', page: '1' });
  });

  it('filters by court from "All courts" and the court list, back on page 1', async () => {
    signInAs('clerk');
    const api = answerStudents(() => listAnswer([row(1)], 1));
    const page = renderAt(<StudentsPage />, '/admin/students?page=2', '/admin/students');
    await settled();
    const select = byLabel(page, 'Court') as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent)).toEqual([
      'All courts',
      'Alameda Traffic Court',
      'Berkeley Traffic Court',
    ]);

    await typeInto(page, 'Court', '9');
    await settled();

    expect(queryOf(api.calls().at(-1))).toEqual({ courtId: '9', page: '1' });
  });

  it('has no court filter for an admin limited to one court', async () => {
    signInAs('admin', 7);
    const api = answerStudents(() => listAnswer([row(1)], 1));
    const page = renderAt(<StudentsPage />, '/admin/students?court=9', '/admin/students');
    await settled();
    expect(() => byLabel(page, 'Court')).toThrow();
    expect(queryOf(api.calls()[0])).toEqual({ page: '1' });
  });

  it('says "No students found" when nothing matches', async () => {
    signInAs('admin');
    answerStudents(() => listAnswer([], 0));
    const page = renderAt(<StudentsPage />, '/admin/students', '/admin/students');
    await settled();
    expect(page.textContent).toContain('No students found');
    expect(page.querySelector('table')).toBeNull();
  });

  it('opens the detail with the student in navigation state, from the row or from the name link', async () => {
    signInAs('admin');
    answerStudents(() => listAnswer([row(4, { first_name: 'Ines' })], 1));
    let page = renderAt(<StudentsPage />, '/admin/students', '/admin/students');
    await settled();
    await click(page.querySelector('tbody tr td'));
    expect(page.querySelector('[data-testid=destination]')?.textContent).toBe('/admin/students/4 state:Ines');

    unmountAll();
    page = renderAt(<StudentsPage />, '/admin/students', '/admin/students');
    await settled();
    const link = page.querySelector('tbody a');
    expect(link?.getAttribute('href')).toBe('/admin/students/4');
    await click(link);
    expect(page.querySelector('[data-testid=destination]')?.textContent).toBe('/admin/students/4 state:Ines');
  });
});

describe('Student Sign Up page (spec 2, 5, 7, 8)', () => {
  async function fillForm(page: HTMLElement) {
    await typeInto(page, 'First name', 'Ana');
    await typeInto(page, 'Last name', 'Garcia');
    await typeInto(page, 'Email', 'ana@example.com');
    await typeInto(page, "Driver's license number", 'D1234567');
    await typeInto(page, 'Date of birth', '04151990');
    await typeInto(page, 'Street address', '1 Main St');
    await typeInto(page, 'City', 'Oakland');
    await typeInto(page, 'State', 'CA');
    await typeInto(page, 'Zip code', '94601');
  }
  const submit = (page: HTMLElement) => click(buttonNamed(page, 'Enroll student'));

  it('defaults the court to the first in the list, with no "Select a court..." choice', async () => {
    signInAs('admin');
    answerStudents(() => ({ status: 201, body: { studentId: 1 } }));
    const page = renderAt(<StudentSignUpPage />, '/admin/student-sign-up', '/admin/student-sign-up');
    await settled();
    const court = byLabel(page, 'Court') as HTMLSelectElement;
    expect(court.value).toBe('7');
    expect([...court.options].map((option) => option.textContent)).toEqual([
      'Alameda Traffic Court',
      'Berkeley Traffic Court',
    ]);
    expect(byLabel(page, 'State').querySelectorAll('option')).toHaveLength(52);
  });

  it("says 'Please fill out all fields.' and sends nothing when a field is missing or the dob is short", async () => {
    signInAs('admin');
    const api = answerStudents(() => ({ status: 201, body: { studentId: 1 } }));
    const page = renderAt(<StudentSignUpPage />, '/admin/student-sign-up', '/admin/student-sign-up');
    await settled();
    await fillForm(page);
    await typeInto(page, 'City', '');
    await submit(page);
    expect(page.querySelector('[role=alert]')?.textContent).toBe('Please fill out all fields.');

    await typeInto(page, 'City', 'Oakland');
    await typeInto(page, 'Date of birth', '0415199');
    expect((byLabel(page, 'Date of birth') as HTMLInputElement).value).toBe('04/15/199');
    await submit(page);
    expect(page.querySelector('[role=alert]')?.textContent).toBe('Please fill out all fields.');
    expect(api.calls()).toEqual([]);
  });

  it('sends backdoor: true, says "Student enrolled." with a link to the student, and empties the form', async () => {
    signInAs('admin');
    const api = answerStudents(() => ({ status: 201, body: { studentId: 42 } }));
    const page = renderAt(<StudentSignUpPage />, '/admin/student-sign-up', '/admin/student-sign-up');
    await settled();
    await fillForm(page);
    await typeInto(page, 'Court', '9');
    await submit(page);

    expect(api.calls()).toHaveLength(1);
    expect(api.calls()[0]?.[0]).toBe('/api/register/student');
    expect(JSON.parse(String(api.calls()[0]?.[1]?.body))).toEqual({
      first_name: 'Ana',
      last_name: 'Garcia',
      email: 'ana@example.com',
      dl_number: 'D1234567',
      dob: '04/15/1990',
      address: '1 Main St',
      city: 'Oakland',
      state: 'CA',
      zip: '94601',
      court: 9,
      backdoor: true,
      // Decision 026: card by phone, at the court's price, unless staff say otherwise.
      manual_payment: { manual_method: 'phone' },
    });
    const status = page.querySelector('[role=status]');
    expect(status?.textContent).toContain('Student enrolled.');
    expect(status?.querySelector('a')?.getAttribute('href')).toBe('/admin/students/42');
    expect((byLabel(page, 'First name') as HTMLInputElement).value).toBe('');
    expect((byLabel(page, 'Date of birth') as HTMLInputElement).value).toBe('');
    expect((byLabel(page, 'Court') as HTMLSelectElement).value).toBe('7');
  });

  it.each([
    [409, { error: { code: 'DUPLICATE_ACCOUNT', message: 'An account already exists', studentId: 3 } }],
    [403, { error: { code: 'FORBIDDEN', message: 'You are not allowed to do that.' } }],
    [500, { error: { code: 'INTERNAL', message: 'Something went wrong' } }],
  ])('shows the one message of spec 8 for a %s answer', async (status, body) => {
    signInAs('admin');
    answerStudents(() => ({ status, body }));
    const page = renderAt(<StudentSignUpPage />, '/admin/student-sign-up', '/admin/student-sign-up');
    await settled();
    await fillForm(page);
    await submit(page);
    expect(page.querySelector('[role=alert]')?.textContent).toBe(
      "A user with this email or driver's license number already exists.",
    );
    expect(page.querySelector('[role=status]')).toBeNull();
  });
});

const detail = (overrides: Partial<AdminStudent>): AdminStudent => ({
  id: 8,
  first_name: 'Ana',
  last_name: 'Garcia',
  email: 'ana@example.com',
  dl_number: 'D1234567',
  dob: '04/15/1990',
  dob_formatted: 'April 15, 1990',
  address: '1 Main St',
  city: 'Oakland',
  state: 'CA',
  zip: '94601',
  court: 7,
  court_name: 'Alameda Traffic Court',
  created_at_formatted: 'November 22, 2026',
  created_at: '2026-11-22T18:00:00.000Z',
  payment_at: null,
  payment_at_formatted: null,
  completed_at: null,
  archived_at: null,
  enrolled_by: null,
  payments: [],
  certificates: [],
  attempts: [],
  ...overrides,
});

describe('Student detail: attempts and who enrolled the student', () => {
  it('lists the attempts chapter by chapter with date, score and result, and names who enrolled the student', async () => {
    signInAs('clerk');
    answerStudents(() => ({
      status: 200,
      body: detail({
        enrolled_by: 'Front Desk Fiona',
        attempts: [
          { chapter_id: 2, submitted_at: '2026-11-02T10:00:00Z', score: 9, passed: true, total: 10 },
          { chapter_id: 1, submitted_at: '2026-11-01T10:00:00Z', score: 5, passed: false, total: 10 },
          { chapter_id: 1, submitted_at: '2026-11-01T11:00:00Z', score: 8, passed: true, total: 10 },
          { chapter_id: 6, submitted_at: '2026-11-03T10:00:00Z', score: 15, passed: true, total: 20 },
        ],
      }),
    }));
    const page = renderAt(<StudentDetailPage />, '/admin/students/8', '/admin/students/:studentId');
    await settled();

    const section = page.querySelector('section[aria-labelledby=attempts-heading]');
    expect(section?.querySelector('h2')?.textContent).toBe('Quiz attempts');
    const rows = [...(section?.querySelectorAll('tbody tr') ?? [])].map((tr) =>
      [...tr.querySelectorAll('td')].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['Chapter 1', '11/1/2026', '5 of 10', 'Failed'],
      ['Chapter 1', '11/1/2026', '8 of 10', 'Passed'],
      ['Chapter 2', '11/2/2026', '9 of 10', 'Passed'],
      ['Final exam', '11/3/2026', '15 of 20', 'Passed'],
    ]);
    const enrolledBy = [...page.querySelectorAll('dt')].find((dt) => dt.textContent === 'Enrolled by');
    expect(enrolledBy?.nextElementSibling?.textContent).toBe('Front Desk Fiona');
  });

  it('says no quiz has been submitted, and shows no "Enrolled by" for a self-registered student', async () => {
    signInAs('admin');
    answerStudents(() => ({ status: 200, body: detail({}) }));
    const page = renderAt(<StudentDetailPage />, '/admin/students/8', '/admin/students/:studentId');
    await settled();
    expect(page.textContent).toContain('No quiz has been submitted yet.');
    expect([...page.querySelectorAll('dt')].map((dt) => dt.textContent)).not.toContain('Enrolled by');
  });
});

describe('Student detail: a new certificate only for a finished course (decision 016)', () => {
  it('offers a super_admin the completion date and Generate for a student who passed the final', async () => {
    signInAs('super_admin');
    answerStudents(() => ({ status: 200, body: detail({ completed_at: '2026-11-03T10:00:00Z' }) }));
    const page = renderAt(<StudentDetailPage />, '/admin/students/8', '/admin/students/:studentId');
    await settled();
    expect(byLabel(page, 'Completion date').disabled).toBe(false);
    expect(buttonNamed(page, 'Generate new certificate')?.disabled).toBe(false);
    expect(page.textContent).not.toContain('once the student has passed the final exam');
  });

  it('shows them disabled, saying why, for a student still in progress', async () => {
    signInAs('super_admin');
    answerStudents(() => ({ status: 200, body: detail({}) }));
    const page = renderAt(<StudentDetailPage />, '/admin/students/8', '/admin/students/:studentId');
    await settled();
    const box = byLabel(page, 'Completion date');
    expect(box.disabled).toBe(true);
    expect(buttonNamed(page, 'Generate new certificate')?.disabled).toBe(true);
    const hint = page.querySelector(`#${CSS.escape(box.getAttribute('aria-describedby') ?? '')}`);
    expect(hint?.textContent).toBe('A new certificate can be generated once the student has passed the final exam.');
  });
});

describe('Student detail: Resend only for the roles the server lets resend (decision 011)', () => {
  const certified = detail({
    completed_at: '2026-11-03T10:00:00Z',
    certificates: [
      {
        id: 1,
        number: 'TS-2026-000001',
        generated_at: '2026-11-03T10:00:00Z',
        completion_date: '2026-11-03',
        routing: 'student_and_court',
        state_filed_at: null,
        timeline: [],
        replaces: null,
        superseded_at: null,
        file_url: '/api/certificates/TS-2026-000001/pdf',
        url: '/api/certificates/TS-2026-000001/pdf',
        deliveries: [
          {
            id: 31,
            recipient: 'student',
            email: 'ana@example.com',
            status: 'failed',
            attempts: 5,
            last_error: 'mailbox full',
            sent_at: null,
          },
          {
            id: 32,
            recipient: 'court',
            email: 'clerk@alameda.example',
            status: 'queued',
            attempts: 0,
            last_error: null,
            sent_at: null,
          },
        ],
      },
    ],
  });
  const resendButtons = (page: HTMLElement) =>
    [...page.querySelectorAll('button')].filter((button) => button.textContent === 'Resend');

  it.each([
    { who: 'a super_admin', type: 'super_admin', courtId: null, count: 1, offers: 'a' },
    { who: 'a full admin', type: 'admin', courtId: null, count: 1, offers: 'a' },
    { who: 'an admin limited to one court', type: 'admin', courtId: 7, count: 0, offers: 'no' },
    { who: 'a clerk', type: 'clerk', courtId: null, count: 0, offers: 'no' },
    { who: "a court's own clerk", type: 'clerk', courtId: 7, count: 0, offers: 'no' },
  ] as const)(
    'gives $who $offers Resend for the failed email (a queued one never has one)',
    async ({ type, courtId, count }) => {
      signInAs(type, courtId);
      answerStudents(() => ({ status: 200, body: certified }));
      const page = renderAt(<StudentDetailPage />, '/admin/students/8', '/admin/students/:studentId');
      await settled();
      expect(page.textContent).toContain('clerk@alameda.example');
      expect(resendButtons(page)).toHaveLength(count);
    },
  );

  it('sends the failed email again and reloads the student', async () => {
    signInAs('admin');
    const api = answerStudents((_url, init) =>
      init?.method === 'POST' ? { status: 200, body: { status: 'queued' } } : { status: 200, body: certified },
    );
    const page = renderAt(<StudentDetailPage />, '/admin/students/8', '/admin/students/:studentId');
    await settled();
    const detailLoads = () => api.calls().filter(([url]) => url === '/api/admin/students/8').length;
    expect(detailLoads()).toBe(1);
    await clickOnly(resendButtons(page)[0]);
    await waitFor(() => expect(detailLoads()).toBe(2));
    await settled();
    const posts = api.calls().filter(([, init]) => init?.method === 'POST');
    expect(posts.map(([url]) => url)).toEqual(['/api/admin/deliveries/31/resend']);
  });
});
