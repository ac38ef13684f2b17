// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n.ts';
import { find, render, settled, stubApi, submit, typeInto, unmountAll } from '../../testing/page.tsx';
import { StudentLoginPage } from './student-login-page.tsx';

/** Signs in as a hurried driver would, with the API answering as `answer` says. */
async function signInWith(
  answer: Parameters<typeof stubApi>[0],
  labels = { lastName: 'Last name', licence: "Driver's license number" },
): Promise<HTMLElement> {
  stubApi(answer);
  const container = render(<StudentLoginPage />, { at: '/login', path: '/login', elsewhere: <p>signed in</p> });
  await typeInto(container, labels.lastName, 'Garcia');
  await typeInto(container, labels.licence, 'E1234567');
  await submit(container.querySelector('form'));
  await settled();
  return find(container, '[role="alert"]');
}

afterEach(async () => {
  unmountAll();
  await i18n.changeLanguage('en');
});

const refused = () => ({ status: 401, body: { error: { code: 'INVALID_LOGIN', message: 'Invalid login' } } });

describe('the student sign-in page', () => {
  it('says the school could not be reached when the sign-in got no answer, not that the details are wrong', async () => {
    const alert = await signInWith(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(alert.textContent).toBe(
      'The school could not be reached: check your connection and sign in again. Your details were not refused.',
    );
  });

  it('says the details are wrong only when the server refused them, and under it what a student signs in with (decision 064)', async () => {
    const alert = await signInWith(refused);
    expect(alert.firstChild?.textContent).toBe('Invalid username or password');
    expect(alert.textContent).toBe(
      'Invalid username or password ' +
        "Students sign in with the last name and driver's license number they registered with.",
    );
  });

  it('says what a student signs in with in Spanish when the page is in Spanish (decision 064)', async () => {
    await i18n.changeLanguage('es');
    const alert = await signInWith(refused, { lastName: 'Apellido', licence: 'Número de licencia de conducir' });
    expect(alert.textContent).toBe(
      'Usuario o contraseña no válidos ' +
        'Los estudiantes inician sesión con el apellido y el número de licencia de conducir con los que se inscribieron.',
    );
  });

  it('says why when the course was closed by a full refund (decision 058)', async () => {
    const alert = await signInWith(() => ({
      status: 403,
      body: { error: { code: 'COURSE_REFUNDED', message: 'This course was closed when its payment was refunded.' } },
    }));
    expect(alert.textContent).toBe(
      'This course was closed when its payment was refunded. To take the course again, please register again.',
    );
  });

  it("gives the server's failure a reference line for support, its request's id (decision 060)", async () => {
    const alert = await signInWith(() => ({
      status: 500,
      body: { error: { code: 'INTERNAL', message: 'Something went wrong.', requestId: 'c0ffee-42' } },
    }));
    expect(alert.textContent).toBe('Something went wrong. Please try again.\nReference: c0ffee-42');
  });
});
