// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { EmailPreview, EmailTemplateSummary } from '@ts/contract';
import { byLabel, findText, render, settled, stubApi, typeInto } from '../../testing/page.tsx';
import { EmailsPage } from './emails-page.tsx';

const TEMPLATES: EmailTemplateSummary[] = [
  { name: 'certificate-to-student', audience: 'student', languages: ['en', 'es'] },
  { name: 'certificate-to-court', audience: 'court', languages: ['en'] },
];

/** The server as the preview calls it: the list, and each template in the language asked (English when it has no other). */
function stubPreviews() {
  return stubApi((url) => {
    const address = new URL(url, 'http://localhost');
    if (address.pathname === '/api/admin/emails') return { status: 200, body: TEMPLATES };
    const name = address.pathname.split('/').at(-1) ?? '';
    const asked = address.searchParams.get('language') === 'es' ? 'es' : 'en';
    const language = TEMPLATES.find((template) => template.name === name)?.languages.includes(asked) ? asked : 'en';
    const preview: EmailPreview = {
      name,
      language,
      subject: `${name} subject in ${language}`,
      html: '<!DOCTYPE html><html><body>html</body></html>',
      text: `${name} text in ${language}`,
    };
    return { status: 200, body: preview };
  });
}

describe('Email Templates page (decision 057)', () => {
  it('shows the first template in English: its subject, its text, and its HTML in a sandboxed frame loaded from the server', async () => {
    stubPreviews();
    const page = render(<EmailsPage />, { at: '/admin/emails', path: '/admin/emails' });
    await findText(page, 'certificate-to-student subject in en');
    expect(page.textContent).toContain('certificate-to-student text in en');
    const frame = page.querySelector('iframe');
    expect(frame?.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame?.getAttribute('src')).toBe('/api/admin/emails/certificate-to-student/html?language=en');
    expect(frame?.getAttribute('title')).toBe('Certificate to the student: the email as it looks');
    const options = [...byLabel(page, 'Email').querySelectorAll('optgroup')].map((group) => group.label);
    expect(options).toEqual(['To students', 'To courts']);
  });

  it('switches to Spanish, and says so when a template is sent in English only', async () => {
    stubPreviews();
    const page = render(<EmailsPage />, { at: '/admin/emails', path: '/admin/emails' });
    await findText(page, 'certificate-to-student subject in en');
    await typeInto(page, 'Language', 'es');
    await findText(page, 'certificate-to-student subject in es');
    expect(page.querySelector('iframe')?.getAttribute('src')).toBe(
      '/api/admin/emails/certificate-to-student/html?language=es',
    );
    expect(page.textContent).not.toContain('This email is sent in English only');

    await typeInto(page, 'Email', 'certificate-to-court');
    await findText(page, 'certificate-to-court subject in en');
    await settled();
    expect(page.querySelector('[role=status]')?.textContent).toBe(
      'This email is sent in English only, so it is shown in English.',
    );
  });

  it('says the templates could not be loaded when the server refuses', async () => {
    stubApi(() => ({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'no' } } }));
    const page = render(<EmailsPage />, { at: '/admin/emails', path: '/admin/emails' });
    await findText(page, 'The email templates could not be loaded. Reload the page to try again.');
  });
});
