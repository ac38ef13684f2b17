// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { render, settled, stubApi, unmountAll } from '../testing/page.tsx';
import { StudentLayout } from './student-layout.tsx';

const STUDENT = {
  id: 8,
  type: 'student',
  name: 'Sam',
  court_id: null,
  payment_at: '2026-11-01T00:00:00Z',
  completed_at: null,
};

/** The student's API as the layout reads it: completed chapters, and the certificate list. */
function answer(certificates: unknown[]) {
  stubApi((url) => {
    if (url.endsWith('/completedChapters')) return { body: [1, 2] };
    if (url.endsWith('/certificate/all')) return { body: certificates };
    return { status: 404, body: { error: { code: 'NOT_FOUND', message: 'x' } } };
  });
}

async function navLinks(): Promise<string[]> {
  localStorage.setItem('user', JSON.stringify(STUDENT));
  const page = render(<StudentLayout />, { at: { pathname: '/' } });
  await settled();
  return [...page.querySelectorAll('nav a')].map((link) => link.textContent ?? '');
}

/** Spec 2 and decision 026: Certificates once a certificate exists or the final is complete. */
describe('the student menu', () => {
  afterEach(() => {
    unmountAll();
  });

  it('shows Certificates to a student given a certificate without passing the final', async () => {
    answer([
      {
        id: 1,
        number: 'TS-2026-000001',
        generated_at: '2026-11-01T18:00:00Z',
        completion_date: '2026-11-01',
        file_url: '/api/certificates/TS-2026-000001/pdf',
        url: '/api/certificates/TS-2026-000001/pdf',
        deliveries: [],
        routing: 'student_and_court',
        state_filed_at: null,
        timeline: [],
        replaces: null,
        superseded_at: null,
      },
    ]);
    expect((await navLinks()).some((text) => text.includes('Certificates'))).toBe(true);
  });

  it('leaves it out before any certificate and before the final', async () => {
    answer([]);
    expect((await navLinks()).some((text) => text.includes('Certificates'))).toBe(false);
  });
});
