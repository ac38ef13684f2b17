// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import i18n, { setLanguage } from '../../lib/i18n.ts';
import type { StaffAccount } from '@ts/contract';
import {
  bodyOf,
  buttonNamed,
  byLabel,
  click,
  render,
  settled,
  setValue,
  stubApi,
  submit,
  typeInto,
  waitFor,
} from '../../testing/page.tsx';
import { UsersPage } from './users-page.tsx';

const SCHOOL = "The school's staff (every court)";
const COURT = "A court's staff (one court only)";

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
const courts = [
  { id: 3, name: 'Court C', county_id: 1, state: 'CA' },
  { id: 4, name: 'Alameda Superior Court', county_id: 2, state: 'CA' },
];

function stubUsersApi(emailed = true) {
  return stubApi((url, init) => {
    if (url.startsWith('/api/public/courts')) return { status: 200, body: courts };
    if (init?.method === 'POST') return { status: 201, body: { user: accounts[1], link: { ...link, emailed } } };
    if (init?.method === 'PUT') return { status: 200, body: accounts[1] };
    return { status: 200, body: accounts };
  });
}

/** The radio whose label reads `text`, inside `container`. */
function radio(container: ParentNode, text: string): HTMLInputElement {
  const label = [...container.querySelectorAll('label')].find((element) => element.textContent === text);
  const input = label?.querySelector('input');
  if (!input) throw new Error(`no radio labelled ${text}`);
  return input;
}

const newForm = (page: HTMLElement) =>
  page.querySelector<HTMLFormElement>('section[aria-labelledby="new-account-heading"] form');
const sentenceOf = (container: ParentNode | null | undefined) =>
  container?.querySelector('[aria-live=polite]')?.textContent ?? null;
const posts = (api: ReturnType<typeof stubApi>, method: string) =>
  api.calls().filter(([, init]) => init?.method === method);

async function fillPerson(form: HTMLFormElement, username: string) {
  await typeInto(form, 'Username', username);
  await typeInto(form, 'Name', 'Cora');
  await typeInto(form, 'Email', `${username}@court.example`);
}

describe('Users page (decisions 011 and 063)', () => {
  it('shows each account with its role, court and status', async () => {
    stubUsersApi();
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

  it('asks whom the account is for with nothing chosen, and creates nothing until it is answered', async () => {
    const api = stubUsersApi();
    const page = render(<UsersPage />);
    await settled();
    const form = newForm(page)!;
    const group = form.querySelector('fieldset');
    expect(group?.querySelector('legend')?.textContent).toBe('This account is for');
    expect(radio(form, SCHOOL).checked).toBe(false);
    expect(radio(form, COURT).checked).toBe(false);
    // The role and the court follow from the answer, so neither is offered before it.
    expect(form.querySelector('select')).toBeNull();
    expect(sentenceOf(form)).toBe('');

    await fillPerson(form, 'cora');
    await submit(form);
    await settled();
    // The message is the group's description, so a screen reader says it with the question.
    const described = document.getElementById(group?.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe("Choose whether this account is for the school's staff or a court's staff.");
    expect(posts(api, 'POST')).toEqual([]);
  });

  it("offers a court's staff only their court (no All courts), requires it, and says what the clerk will see", async () => {
    const api = stubUsersApi();
    const page = render(<UsersPage />);
    await settled();
    const form = newForm(page)!;
    await click(radio(form, COURT));
    const roles = byLabel(form, 'Role') as HTMLSelectElement;
    expect([...roles.options].map((option) => option.textContent)).toEqual(['Admin', 'Clerk']);
    expect(roles.value).toBe('clerk');
    const court = byLabel(form, 'Court') as HTMLSelectElement;
    expect([...court.options].map((option) => option.textContent)).toEqual([
      'Select a court...',
      'Court C',
      'Alameda Superior Court',
    ]);
    expect(sentenceOf(form)).toBe("Choose the court: a court's staff see the students of that court only.");

    await fillPerson(form, 'cora');
    await submit(form);
    await settled();
    expect(form.textContent).toContain('Choose the court this account belongs to.');
    expect(court.getAttribute('aria-invalid')).toBe('true');
    expect(posts(api, 'POST')).toEqual([]);

    await setValue(court, '4');
    expect(sentenceOf(form)).toBe(
      'This clerk will see the students, certificates and completions of Alameda Superior Court only.',
    );
    await submit(form);
    await settled();
    expect(bodyOf(posts(api, 'POST')[0])).toEqual({
      username: 'cora',
      name: 'Cora',
      email: 'cora@court.example',
      role: 'clerk',
      staff_of: 'court',
      court_id: 4,
    });
    expect((byLabel(page, 'Set-password link') as HTMLInputElement).value).toBe(link.setPasswordUrl);
  });

  it('creates a school admin over every court, with no court to choose, and says so first', async () => {
    const api = stubUsersApi(false);
    const page = render(<UsersPage />);
    await settled();
    const form = newForm(page)!;
    await click(radio(form, SCHOOL));
    const roles = byLabel(form, 'Role') as HTMLSelectElement;
    expect([...roles.options].map((option) => option.textContent)).toEqual(['Super admin', 'Admin', 'Clerk']);
    expect(form.querySelector('select[name=court_id]')).toBeNull();
    expect(sentenceOf(form)).toBe("This clerk will see every court's students, payments and revenue.");
    await setValue(roles, 'admin');
    expect(sentenceOf(form)).toBe("This admin will see every court's students, payments and revenue.");
    await fillPerson(form, 'wendy');
    await submit(form);
    await settled();
    expect(bodyOf(posts(api, 'POST')[0])).toEqual({
      username: 'wendy',
      name: 'Cora',
      email: 'wendy@court.example',
      role: 'admin',
      staff_of: 'school',
      court_id: null,
    });
    expect(page.textContent).toContain('could not be sent');
    expect(page.textContent).toContain('72 hours');
  });

  it("says in Spanish what a court's clerk will see", async () => {
    stubUsersApi();
    setLanguage('es');
    try {
      await waitFor(() => expect(i18n.language).toBe('es'));
      const page = render(<UsersPage />);
      await settled();
      const form = newForm(page)!;
      await click(radio(form, 'El personal de un tribunal (un solo tribunal)'));
      await setValue(byLabel(form, 'Tribunal'), '4');
      expect(sentenceOf(form)).toBe(
        'Este secretario verá solo los estudiantes, los certificados y las finalizaciones de Alameda Superior Court.',
      );
    } finally {
      setLanguage('en');
      await waitFor(() => expect(i18n.language).toBe('en'));
    }
  });

  it("turns a super admin into a clerk when the account becomes a court's", async () => {
    stubUsersApi();
    const page = render(<UsersPage />);
    await settled();
    const form = newForm(page)!;
    await click(radio(form, SCHOOL));
    await setValue(byLabel(form, 'Role'), 'super_admin');
    await click(radio(form, COURT));
    expect(byLabel(form, 'Role').value).toBe('clerk');
  });
});

describe('Edit staff account dialog (decision 063)', () => {
  async function openEdit(name: string) {
    const api = stubUsersApi();
    const page = render(<UsersPage />);
    await settled();
    await click(buttonNamed(page, `Edit ${name}`));
    const dialog = document.querySelector<HTMLElement>('[role=dialog], dialog');
    if (!dialog) throw new Error('no dialog');
    return { api, dialog };
  }

  it("starts from the account's own scope and says nothing until the role or the court changes", async () => {
    const { dialog } = await openEdit('Wendy');
    expect(radio(dialog, COURT).checked).toBe(true);
    expect(sentenceOf(dialog)).toBe('');
    await setValue(byLabel(dialog, 'Court'), '4');
    expect(sentenceOf(dialog)).toBe(
      'This admin will see the students, certificates, completions and corrections of Alameda Superior Court only.',
    );
    await setValue(byLabel(dialog, 'Court'), '3');
    expect(sentenceOf(dialog)).toBe('');
    await setValue(byLabel(dialog, 'Role'), 'clerk');
    expect(sentenceOf(dialog)).toBe('This clerk will see the students, certificates and completions of Court C only.');
  });

  it("sends a school clerk's move to one court with its court, and refuses the move without one", async () => {
    const { api, dialog } = await openEdit('Gus');
    expect(radio(dialog, SCHOOL).checked).toBe(true);
    expect(dialog.querySelector('select[name=court_id]')).toBeNull();
    await click(radio(dialog, COURT));
    expect([...(byLabel(dialog, 'Court') as HTMLSelectElement).options].map((option) => option.value)).toEqual([
      '',
      '3',
      '4',
    ]);
    await submit(dialog.querySelector('form'));
    await settled();
    expect(dialog.textContent).toContain('Choose the court this account belongs to.');
    expect(posts(api, 'PUT')).toEqual([]);

    await setValue(byLabel(dialog, 'Court'), '4');
    expect(sentenceOf(dialog)).toBe(
      'This clerk will see the students, certificates and completions of Alameda Superior Court only.',
    );
    await submit(dialog.querySelector('form'));
    await settled();
    expect(bodyOf(posts(api, 'PUT')[0])).toEqual({
      name: 'Gus',
      email: 'boss@school.example',
      role: 'clerk',
      staff_of: 'court',
      court_id: 4,
      disabled: true,
    });
  });
});
