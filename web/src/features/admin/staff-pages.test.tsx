// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { StaffAccount } from '@ts/contract';
import { bodyOf, byLabel, render, settled, setValue, stubApi, submit, typeInto } from '../../testing/page.tsx';
import { SetPasswordPage } from '../auth/set-password-page.tsx';
import { ChangePasswordPage } from './change-password-page.tsx';
import { UsersPage } from './users-page.tsx';

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

describe('Users page', () => {
  const account = (overrides: Partial<StaffAccount>): StaffAccount => ({
    id: 1,
    username: 'boss',
    email: 'boss@school.example',
    name: 'Boss',
    role: 'super_admin',
    court_id: null,
    court_name: null,
    created_at: '2026-11-01T00:00:00Z',
    disabled_at: null,
    password_set: true,
    ...overrides,
  });
  const accounts = [
    account({}),
    account({
      id: 2,
      username: 'wait',
      name: 'Wendy',
      role: 'admin',
      court_id: 3,
      court_name: 'Court C',
      password_set: false,
    }),
    account({ id: 3, username: 'gone', name: 'Gus', role: 'clerk', disabled_at: '2026-11-02T00:00:00Z' }),
  ];
  const link = { setPasswordUrl: 'https://school.example/set-password#token=abc', expires_at: '2026-11-25T15:00:00Z' };

  function stubUsersApi(emailed: boolean) {
    return stubApi((url, init) => {
      if (url.startsWith('/api/public/courts'))
        return { status: 200, body: [{ id: 3, name: 'Court C', county_id: 1, state: 'CA' }] };
      if (init?.method === 'POST') return { status: 201, body: { user: accounts[1], link: { ...link, emailed } } };
      return { status: 200, body: accounts };
    });
  }

  it('shows each account with its role, court and status', async () => {
    stubUsersApi(true);
    const page = render(<UsersPage />);
    await settled();
    const rows = [...page.querySelectorAll('tbody tr')].map((row) =>
      [...row.querySelectorAll('th, td')].slice(0, 6).map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['Boss', 'boss', 'boss@school.example', 'Super admin', 'All courts', 'Active'],
      ['Wendy', 'wait', 'boss@school.example', 'Admin', 'Court C', 'Waiting for password'],
      ['Gus', 'gone', 'boss@school.example', 'Clerk', 'All courts', 'Disabled'],
    ]);
  });

  async function chooseRole(page: HTMLElement, value: string) {
    await typeInto(page, 'Role', value);
  }

  it('offers a court for an admin or a clerk, never a super_admin, and shows the new link once', async () => {
    const api = stubUsersApi(false);
    const page = render(<UsersPage />);
    await settled();
    await chooseRole(page, 'super_admin');
    expect(page.querySelector('select[name=court_id]')).toBeNull();
    await chooseRole(page, 'admin');
    expect((byLabel(page, 'Court') as HTMLSelectElement).options[0]?.textContent).toBe('All courts (full admin)');
    await typeInto(page, 'Username', 'wendy');
    await typeInto(page, 'Name', 'Wendy');
    await typeInto(page, 'Email', 'wendy@school.example');
    await send([...page.querySelectorAll('form')].at(-1));

    const post = api.calls().find(([, init]) => init?.method === 'POST');
    expect(bodyOf(post)).toEqual({
      username: 'wendy',
      name: 'Wendy',
      email: 'wendy@school.example',
      role: 'admin',
      court_id: null,
    });
    expect((byLabel(page, 'Set-password link') as HTMLInputElement).value).toBe(link.setPasswordUrl);
    expect(page.textContent).toContain('could not be sent');
    expect(page.textContent).toContain('72 hours');
  });

  it("creates a court's own clerk: the new-account form sends the chosen court with the clerk role", async () => {
    const api = stubUsersApi(true);
    const page = render(<UsersPage />);
    await settled();
    await chooseRole(page, 'clerk');
    const court = byLabel(page, 'Court') as HTMLSelectElement;
    expect([...court.options].map((option) => option.textContent)).toEqual(['All courts', 'Court C']);
    await setValue(court, '3');
    await typeInto(page, 'Username', 'cora');
    await typeInto(page, 'Name', 'Cora');
    await typeInto(page, 'Email', 'cora@court.example');
    await send([...page.querySelectorAll('form')].at(-1));

    const post = api.calls().find(([, init]) => init?.method === 'POST');
    expect(bodyOf(post)).toEqual({
      username: 'cora',
      name: 'Cora',
      email: 'cora@court.example',
      role: 'clerk',
      court_id: 3,
    });
  });
});
