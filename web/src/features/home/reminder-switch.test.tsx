// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n.ts';
import { byLabel, click, findText, render, settled, stubApi, unmountAll } from '../../testing/page.tsx';
import { ReminderSwitch } from './reminder-switch.tsx';

const SWITCH = 'Email me reminders before my dates';

afterEach(async () => {
  unmountAll();
  await i18n.changeLanguage('en');
});

describe('the reminder switch on the home page', () => {
  it('shows the saved setting as a labelled switch, and turning it off saves it for the student', async () => {
    let saved = true;
    const api = stubApi((url, init) => {
      if (init?.method === 'PUT') saved = (JSON.parse(String(init.body)) as { remindersOn: boolean }).remindersOn;
      return { body: { remindersOn: saved } };
    });
    const page = render(<ReminderSwitch studentId={7} />);
    await findText(page, 'Reminders are on.');
    const control = byLabel(page, SWITCH) as HTMLInputElement;
    expect(control.getAttribute('role')).toBe('switch');
    expect(control.checked).toBe(true);

    await click(control);
    await settled();
    expect(api.requests().at(-1)).toEqual({
      method: 'PUT',
      url: '/api/students/7/reminders',
      body: { remindersOn: false },
    });
    expect((byLabel(page, SWITCH) as HTMLInputElement).checked).toBe(false);
    expect(page.textContent).toContain('Reminders are off.');
  });

  it('puts the switch back and says why when the school refuses the change', async () => {
    stubApi((_url, init) =>
      init?.method === 'PUT'
        ? { status: 401, body: { error: { code: 'UNAUTHENTICATED', message: 'Please sign in.' } } }
        : { body: { remindersOn: true } },
    );
    const page = render(<ReminderSwitch studentId={7} />);
    await findText(page, 'Reminders are on.');
    await click(byLabel(page, SWITCH));
    await settled();
    expect((byLabel(page, SWITCH) as HTMLInputElement).checked).toBe(true);
    expect(page.querySelector('[role="alert"]')).not.toBeNull();
  });

  it('speaks Spanish to a Spanish reader', async () => {
    stubApi(() => ({ body: { remindersOn: false } }));
    await i18n.changeLanguage('es');
    const page = render(<ReminderSwitch studentId={7} />);
    await findText(page, 'Los recordatorios están desactivados.');
    expect((byLabel(page, 'Enviarme recordatorios antes de mis fechas') as HTMLInputElement).checked).toBe(false);
  });
});
