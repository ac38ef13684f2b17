// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { AdminStudent } from '@ts/contract';
import { buttonNamed, byLabel, click, render, setValue, settled, stubApi, waitFor } from '../../testing/page.tsx';
import { StudentContactSection } from './student-contact-section.tsx';

const STUDENT: AdminStudent = {
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
  language: 'en',
  payments: [],
  certificates: [],
  attempts: [],
};

/** Decision 056: staff change the language of the student's emails with their contact details. */
describe("the admin's contact form: the language of the student's emails", () => {
  it('shows the stored language and sends the one chosen with the contact details', async () => {
    const api = stubApi(() => ({ body: { ...STUDENT, language: 'es' } }));
    const page = render(<StudentContactSection student={STUDENT} />);
    await click(buttonNamed(page, 'Correct email or address'));
    const language = byLabel(page, 'Language of the student’s emails');
    expect(language.value).toBe('en');

    await setValue(language, 'es');
    await click(buttonNamed(page, 'Save'));
    await settled();
    await waitFor(() =>
      expect(api.requests()).toEqual([
        {
          method: 'PUT',
          url: '/api/admin/students/8/contact',
          body: {
            email: 'ana@example.com',
            address: '1 Main St',
            city: 'Oakland',
            state: 'CA',
            zip: '94601',
            resend: false,
            language: 'es',
          },
        },
      ]),
    );
  });
});
