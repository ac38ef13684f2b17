// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { bodyOf, render, settled, stubApi, submit, typeInto } from '../../testing/page.tsx';
import { SetPasswordPage } from '../auth/set-password-page.tsx';
import { ChangePasswordPage } from './change-password-page.tsx';

/** Submits the form and waits for the answer to show. */
async function send(form: HTMLFormElement | null | undefined) {
  await submit(form);
  await settled();
}

describe('Change Password page (spec 2, 5, 8)', () => {
  function renderAsStaff() {
    localStorage.setItem(
      'user',
      JSON.stringify({ id: 5, type: 'admin', name: 'Ada', court_id: null, payment_at: null, completed_at: null }),
    );
    return render(<ChangePasswordPage />);
  }

  it("alerts 'New Password & Confirm New Password must match' and sends nothing when they differ", async () => {
    const api = stubApi(() => ({ status: 200, body: { status: 'SUCCESS' } }));
    const page = renderAsStaff();
    await typeInto(page, 'Current Password', 'the old passphrase');
    await typeInto(page, 'New Password', 'a new passphrase 1');
    await typeInto(page, 'Confirm New Password', 'a new passphrase 2');
    await send(page.querySelector('form'));
    expect(page.querySelector('[role=alert]')?.textContent).toBe('New Password & Confirm New Password must match');
    expect(api.calls()).toEqual([]);
  });

  it("sends the stored user's id with both passwords and shows the success message", async () => {
    const api = stubApi(() => ({ status: 200, body: { status: 'SUCCESS' } }));
    const page = renderAsStaff();
    await typeInto(page, 'Current Password', 'the old passphrase');
    await typeInto(page, 'New Password', 'a new passphrase');
    await typeInto(page, 'Confirm New Password', 'a new passphrase');
    await send(page.querySelector('form'));
    expect(api.calls()[0]?.[0]).toBe('/api/admin/change-password');
    expect(bodyOf(api.calls()[0])).toEqual({ userId: 5, currentPw: 'the old passphrase', newPw: 'a new passphrase' });
    expect(page.querySelector('[role=status]')?.textContent).toBe('Your password was successfully changed!');
  });

  it('shows the failure message of spec 8 when the server refuses', async () => {
    stubApi(() => ({ status: 400, body: { error: { code: 'WRONG_PASSWORD', message: 'refused' } } }));
    const page = renderAsStaff();
    await typeInto(page, 'Current Password', 'not the passphrase');
    await typeInto(page, 'New Password', 'a new passphrase');
    await typeInto(page, 'Confirm New Password', 'a new passphrase');
    await send(page.querySelector('form'));
    expect(page.querySelector('[role=alert]')?.textContent).toBe(
      'There was an error changing your password. Please ensure your current password was typed correctly.',
    );
  });
});

describe('Set password page', () => {
  it('sends the token of the link fragment and shows the invalid-link message when it is refused', async () => {
    const api = stubApi(() => ({ status: 400, body: { error: { code: 'INVALID_LINK', message: 'refused' } } }));
    const page = render(<SetPasswordPage />, { at: '/set-password#token=abcdefghijklmnop' });
    await typeInto(page, 'New password', 'a new passphrase');
    await typeInto(page, 'Confirm new password', 'a new passphrase');
    await send(page.querySelector('form'));
    expect(bodyOf(api.calls()[0])).toEqual({ token: 'abcdefghijklmnop', password: 'a new passphrase' });
    expect(page.querySelector('[role=alert]')?.textContent).toBe(
      'This link is invalid or has expired. Ask a super admin for a new one.',
    );
  });

  it('links to the staff sign-in once the password is set', async () => {
    stubApi(() => ({ status: 200, body: { status: 'SUCCESS' } }));
    const page = render(<SetPasswordPage />, { at: '/set-password#token=abcdefghijklmnop' });
    await typeInto(page, 'New password', 'a new passphrase');
    await typeInto(page, 'Confirm new password', 'a new passphrase');
    await send(page.querySelector('form'));
    expect(page.querySelector('[role=status]')?.textContent).toContain('Your password has been set.');
    expect(page.querySelector('a')?.getAttribute('href')).toBe('/admin-login');
  });
});
