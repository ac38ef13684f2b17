// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { find, render, settled, stubApi, submit, typeInto } from '../../testing/page.tsx';
import { StudentLoginPage } from './student-login-page.tsx';

/** Signs in as a hurried driver would, with the API answering as `answer` says. */
async function signInWith(answer: Parameters<typeof stubApi>[0]): Promise<HTMLElement> {
  stubApi(answer);
  const container = render(<StudentLoginPage />, { at: '/login', path: '/login', elsewhere: <p>signed in</p> });
  await typeInto(container, 'Last name', 'Garcia');
  await typeInto(container, "Driver's license number", 'E1234567');
  await submit(container.querySelector('form'));
  await settled();
  return find(container, '[role="alert"]');
}

describe('the student sign-in page', () => {
  it('says the school could not be reached when the sign-in got no answer, not that the details are wrong', async () => {
    const alert = await signInWith(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(alert.textContent).toBe(
      'The school could not be reached: check your connection and sign in again. Your details were not refused.',
    );
  });

  it('says the details are wrong only when the server refused them', async () => {
    const alert = await signInWith(() => ({
      status: 401,
      body: { error: { code: 'INVALID_LOGIN', message: 'Invalid login' } },
    }));
    expect(alert.textContent).toBe('Invalid username or password');
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
