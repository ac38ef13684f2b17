// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import i18n, { setLanguage } from '../lib/i18n.ts';
import { buttonNamed, click, render, settled, stubApi, waitFor } from '../testing/page.tsx';
import { LanguageSwitch } from './language-switch.tsx';

const STUDENT = { id: 8, type: 'student', name: 'Sam', court_id: null, payment_at: null, completed_at: null };
const CLERK = { id: 3, type: 'clerk', name: 'Pat', court_id: 2, payment_at: null, completed_at: null };

/** The widget with the API answering the language switch, and who is signed in (if anyone). */
function renderSwitch(user: object | null) {
  if (user) localStorage.setItem('user', JSON.stringify(user));
  const api = stubApi(() => ({ status: 204, body: undefined }));
  const page = render(<LanguageSwitch />);
  return { api, page };
}

/** Decision 056: a signed-in student's switch is stored for the emails the school sends them. */
describe('the language switch', () => {
  afterEach(async () => {
    setLanguage('en');
    await waitFor(() => expect(i18n.language).toBe('en'));
  });

  it("stores a signed-in student's new language on the server, and switches the page", async () => {
    const { api, page } = renderSwitch(STUDENT);
    await click(buttonNamed(page, 'Español'));
    await waitFor(() =>
      expect(api.requests()).toEqual([{ method: 'PUT', url: '/api/me/language', body: { language: 'es' } }]),
    );
    await waitFor(() => expect(i18n.language).toBe('es'));
  });

  it('asks nothing of the server when the language chosen is the one shown', async () => {
    const { api, page } = renderSwitch(STUDENT);
    await click(buttonNamed(page, 'English'));
    await settled();
    expect(api.requests()).toEqual([]);
  });

  it('only switches the page for a visitor or a staff member, who have no language on record', async () => {
    for (const user of [null, CLERK]) {
      const { api, page } = renderSwitch(user);
      await click(buttonNamed(page, 'Español'));
      await settled();
      expect(api.requests()).toEqual([]);
      setLanguage('en');
      await waitFor(() => expect(i18n.language).toBe('en'));
      page.remove();
      localStorage.removeItem('user');
    }
  });
});
