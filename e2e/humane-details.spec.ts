import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { answerQuiz, completeModulesByApi, passChapterByApi } from './course-content.ts';
import {
  courtIdNamed,
  expect,
  expectNoSeriousA11yViolations,
  fillRegistration,
  newStudentDetails,
  registerPaidStudent,
  signInAsAdmin,
  signInAsStudent,
  test,
} from './fixtures.ts';
import { E2E_STRICT_COURT } from './support/timed-court.ts';

/** The web app's humane details (decision 021), on a phone and on a desktop. */

const SPANISH_QUESTIONS = new Set(
  (
    JSON.parse(
      fs.readFileSync(
        path.join(
          path.dirname(fileURLToPath(import.meta.url)),
          '..',
          'content',
          'course',
          'chapter-1',
          'questions.json',
        ),
        'utf8',
      ),
    ) as { es: { question: string } }[]
  ).map((question) => question.es.question),
);

const questionText = async (page: Page, index: number) =>
  ((await page.locator('fieldset legend').nth(index).textContent()) ?? '').replace(/^\d+\.\s*/, '').trim();

/**
 * The browser's speech engine, recorded: this machine's Chromium has no voices, so the page
 * would (rightly) show no Read aloud at all. Everything the page asks of speechSynthesis is kept
 * in window.__speech for the test to read; an utterance "ends" 300 ms after it starts.
 */
interface SpeechCall {
  kind: string;
  text?: string;
  lang?: string;
  rate?: number;
}
declare global {
  interface Window {
    __speech: SpeechCall[];
  }
}

const FAKE_SPEECH = () => {
  const calls: SpeechCall[] = [];
  window.__speech = calls;
  const voices = [
    { name: 'Test English', lang: 'en-US', default: true, localService: true, voiceURI: 'en' },
    { name: 'Test Spanish', lang: 'es-US', default: false, localService: true, voiceURI: 'es' },
  ];
  class FakeUtterance extends EventTarget {
    text: string;
    lang = '';
    rate = 1;
    voice: unknown = null;
    onstart: (() => void) | null = null;
    onend: (() => void) | null = null;
    constructor(text: string) {
      super();
      this.text = text;
    }
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const synth = Object.assign(new EventTarget(), {
    getVoices: () => voices,
    speak(utterance: FakeUtterance) {
      calls.push({ kind: 'speak', text: utterance.text, lang: utterance.lang, rate: utterance.rate });
      setTimeout(() => utterance.onstart?.(), 0);
      timer = setTimeout(() => utterance.onend?.(), 300);
    },
    cancel() {
      calls.push({ kind: 'cancel' });
      clearTimeout(timer);
    },
    pause() {
      calls.push({ kind: 'pause' });
      clearTimeout(timer);
    },
    resume() {
      calls.push({ kind: 'resume' });
    },
  });
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
  Object.defineProperty(window, 'SpeechSynthesisUtterance', { value: FakeUtterance, configurable: true });
};

for (const viewport of [
  { name: 'phone', width: 375, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test.describe(`at ${String(viewport.width)} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('the quiz counts the answers, keeps them through a switch to Español, and its result opens at the top with the focus on the headline', async ({
      page,
      request,
    }) => {
      test.setTimeout(60_000);
      const student = await registerPaidStudent(request);
      await signInAsStudent(page, student);
      await expect(page).toHaveTitle(`Welcome, Ana ${student.last_name} – Safe Roads Traffic School`);
      await completeModulesByApi(page.request, student.id, 1);
      await page.goto('/quiz/1');
      await expect(page).toHaveTitle(/^Chapter 1 Quiz – /);

      // How many are answered, and what Submit still needs.
      await expect(page.getByTestId('quiz-answered')).toHaveText('0 of 10 answered');
      await page.locator('fieldset').first().getByRole('radio').first().check();
      await expect(page.getByTestId('quiz-answered')).toHaveText('1 of 10 answered');
      await expect(page.getByRole('button', { name: 'Submit Quiz' })).toHaveAccessibleDescription(
        '9 questions left to answer',
      );

      // The questions switch language with the instructions; the answer stays chosen.
      const firstEnglish = await questionText(page, 0);
      await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
      await expect(page.getByTestId('quiz-answered')).toHaveText('1 de 10 respondidas');
      await expect.poll(() => questionText(page, 0)).not.toBe(firstEnglish);
      expect(SPANISH_QUESTIONS.has(await questionText(page, 0))).toBe(true);
      await expect(page.locator('fieldset').first().getByRole('radio').first()).toBeChecked();
      await page.getByRole('group', { name: 'Idioma' }).getByRole('button', { name: 'English' }).click();
      await expect.poll(() => questionText(page, 0)).toBe(firstEnglish);

      // Submitted from the bottom of the page, the result opens at its top.
      await answerQuiz(page, 4);
      await page.getByRole('button', { name: 'Submit Quiz' }).scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
      await page.getByRole('button', { name: 'Submit Quiz' }).click();
      await expect(page).toHaveURL(/\/score$/);
      const headline = page.getByRole('heading', { level: 1, name: 'You did not pass this time' });
      await expect(headline).toBeFocused();
      await expect(page).toHaveTitle(/^You did not pass this time – /);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await expect(page.getByRole('link', { name: 'Retry Quiz' })).toBeInViewport();
      await expectNoSeriousA11yViolations(page);
    });

    test('a strict court’s rules are said on the registration form, the pay page and the home page', async ({
      page,
      request,
    }) => {
      const details = { ...newStudentDetails(), state: E2E_STRICT_COURT.state };
      await page.goto('/register');
      await expect(page).toHaveTitle('Register for traffic school – Safe Roads Traffic School');
      // The court list follows the state chosen above it.
      await page.getByLabel('State', { exact: true }).selectOption({ label: E2E_STRICT_COURT.stateName });
      await expect(page.getByLabel('Court', { exact: true }).locator('option')).toHaveText([
        'Select a court...',
        E2E_STRICT_COURT.name,
      ]);
      await page.getByLabel('My court is in another state').check();
      expect(await page.getByLabel('Court', { exact: true }).locator('option').count()).toBeGreaterThan(10);
      await page.getByLabel('My court is in another state').uncheck();

      const strictRules = [
        'At least 4 hours of active study before the final exam.',
        'Final exam: 40 questions, 32 correct to pass. 2 attempts allowed. After a failed attempt, wait 24 hours before the next.',
        '60 days from registration to finish the course.',
        'Your certificate is emailed to you; give it to your court yourself.',
      ];
      await fillRegistration(page, details, { stateName: E2E_STRICT_COURT.stateName, court: E2E_STRICT_COURT.name });
      const rules = page.getByRole('region', { name: 'What this court requires' });
      for (const line of strictRules) await expect(rules.getByText(line, { exact: true })).toBeVisible();
      // Never the default course's final of 14 of 20.
      await expect(page.getByText(/14 correct/)).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);

      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page).toHaveURL(/\/pay$/);
      const payRules = page.getByRole('region', { name: 'Your court’s rules' });
      for (const line of strictRules) await expect(payRules.getByText(line, { exact: true })).toBeVisible();

      // The home page of a student of that court, once paid.
      const student = await registerPaidStudent(request, {
        state: E2E_STRICT_COURT.state,
        court: await strictCourtId(page),
      });
      await signInAsStudent(page, student);
      const homeRules = page.getByRole('region', { name: 'Your court’s rules' });
      for (const line of strictRules) await expect(homeRules.getByText(line, { exact: true })).toBeVisible();
      await expect(
        page.getByText('When you pass the final exam, your certificate is sent to you and to your court.'),
      ).toHaveCount(0);
    });

    test('the registration form says which field is wrong, marks it and puts the focus on it', async ({ page }) => {
      await page.goto('/register');
      await page.getByRole('button', { name: 'Register' }).click();
      // Spec 5's words under the form, and every field marked with its own message.
      await expect(page.getByRole('alert')).toHaveText('Please fill out all fields.');
      await expect(page.getByLabel('First name')).toBeFocused();
      for (const label of ['First name', 'Last name', 'Zip code', 'Date of birth']) {
        await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('aria-invalid', 'true');
      }
      await expect(page.getByLabel('First name')).toHaveAccessibleDescription('This field is required.');
      await expect(page.getByLabel('Court', { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await expectNoSeriousA11yViolations(page);

      // Everything filled but a zip of three digits: only the zip is wrong, and it has the focus.
      await fillRegistration(page, { ...newStudentDetails(), zip: '958' });
      await expect(page.getByLabel('First name')).not.toHaveAttribute('aria-invalid', 'true');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByLabel('Zip code')).toBeFocused();
      await expect(page.getByLabel('Zip code')).toHaveAccessibleDescription('Please enter a 5-digit zip code.');
      await expect(page.getByRole('alert')).toHaveText('Please correct the fields marked above.');
      await expect(page).toHaveURL(/\/register$/);

      // Put right, the message goes as it is typed.
      await page.getByLabel('Zip code').fill('95814');
      await expect(page.getByLabel('Zip code')).not.toHaveAttribute('aria-invalid', 'true');

      // In Spanish, the field messages are Spanish.
      await page.getByLabel('Zip code').fill('');
      await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
      await page.getByRole('button', { name: 'Inscribirse' }).click();
      await expect(page.getByText('Este campo es obligatorio.')).toBeVisible();
    });

    test('a module can be read aloud: play, pause, resume, speed and stop drive the browser’s speech', async ({
      page,
      request,
    }) => {
      await page.addInitScript(FAKE_SPEECH);
      const student = await registerPaidStudent(request);
      await signInAsStudent(page, student);
      await expect(page.getByRole('link', { name: 'Begin Course' })).toBeVisible();
      const modules = (await (await page.request.get('/api/content/modules/1')).json()) as { id: number }[];
      await page.goto(`/content/1/${String(modules[0]!.id)}`);
      const controls = page.getByRole('group', { name: 'Read aloud' });
      await controls.getByRole('button', { name: 'Read aloud' }).click();
      const speech = () => page.evaluate(() => window.__speech);
      await expect.poll(async () => (await speech()).filter((call) => call.kind === 'speak').length).toBeGreaterThan(1);
      const firstSpoken = (await speech()).find((call) => call.kind === 'speak');
      expect(firstSpoken?.lang).toBe('en-US');
      await expect(page.locator('article')).toContainText(firstSpoken?.text ?? 'nothing was spoken');
      expect(await page.evaluate(() => CSS.highlights.has('read-aloud'))).toBe(true);

      await controls.getByRole('button', { name: 'Pause' }).click();
      await controls.getByRole('button', { name: 'Resume' }).click();
      await controls.getByLabel('Speed').selectOption('1.5');
      await expect
        .poll(async () => (await speech()).some((call) => call.kind === 'speak' && call.rate === 1.5))
        .toBe(true);
      await controls.getByRole('button', { name: 'Stop' }).click();
      const kinds = (await speech()).map((call) => call.kind);
      expect(kinds).toEqual(expect.arrayContaining(['pause', 'resume', 'cancel']));
      expect(await page.evaluate(() => CSS.highlights.has('read-aloud'))).toBe(false);
      await expect(controls.getByRole('button', { name: 'Read aloud' })).toBeVisible();

      // In Spanish it reads the Spanish text with a Spanish voice.
      await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
      await page
        .getByRole('group', { name: 'Leer en voz alta' })
        .getByRole('button', { name: 'Leer en voz alta' })
        .click();
      await expect
        .poll(async () => (await speech()).filter((call) => call.kind === 'speak').at(-1))
        .toMatchObject({ lang: 'es-US' });
      await expectNoSeriousA11yViolations(page);
    });

    test('dates are the school’s calendar days, whatever the reader’s own clock says', async ({ browser, request }) => {
      // A reader in Tokyo: most of the day there is already tomorrow in Los Angeles' terms, or yesterday.
      const context = await browser.newContext({
        timezoneId: 'Asia/Tokyo',
        viewport: { width: viewport.width, height: viewport.height },
      });
      const page = await context.newPage();
      const student = await registerPaidStudent(request);
      await signInAsStudent(page, student);
      await expect(page.getByRole('link', { name: 'Begin Course' })).toBeVisible();
      for (const chapter of [1, 2, 3, 4, 6]) await passChapterByApi(page.request, student.id, chapter);
      const [certificate] = (await (
        await page.request.get(`/api/students/${String(student.id)}/certificate/all`)
      ).json()) as { generated_at: string }[];
      const schoolDay = new Date(certificate!.generated_at).toLocaleDateString('en-US', {
        timeZone: 'America/Los_Angeles',
      });
      await page.goto('/certificate');
      await expect(page.getByText(schoolDay, { exact: true })).toBeVisible();
      await context.close();
    });
  });
}

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the phone menu works by keyboard: focus goes in, Tab stays in, Escape closes it and gives the focus back', async ({
    page,
    request,
  }) => {
    const student = await registerPaidStudent(request);
    await signInAsStudent(page, student);
    const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('button', { name: 'Close menu' })).toBeFocused();
    // Tab goes through the menu's links; past the last one the browser moves to its own toolbar
    // (the page is then the body), never to the page behind.
    const visited = new Set<string>();
    for (let press = 0; press < 12; press++) {
      const where = await menu.evaluate((dialog) =>
        dialog.contains(document.activeElement)
          ? `in:${document.activeElement?.textContent ?? ''}`
          : document.activeElement === document.body
            ? 'browser'
            : `outside:${document.activeElement?.outerHTML.slice(0, 80) ?? ''}`,
      );
      expect(where).not.toMatch(/^outside/);
      visited.add(where);
      await page.keyboard.press('Tab');
    }
    // A chapter not open yet says so to a screen reader too (decision 066).
    expect(visited).toContain('in:Chapter 2(locked)');
    // The page behind is inert while the menu is open.
    expect(await menu.evaluate((dialog) => dialog.matches(':modal'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(menuButton).toBeFocused();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');

    // The close button closes it too.
    await menuButton.click();
    await menu.getByRole('button', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
  });
});

test.describe('staff pages at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the students table has a payment column, sorts by its headers and says where it scrolls sideways; questions can be searched', async ({
    page,
    request,
  }) => {
    const student = await registerPaidStudent(request);
    await signInAsAdmin(page);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto(`/admin/students?search=${student.last_name}`);
    const row = page.getByRole('row').filter({ hasText: student.email });
    await expect(row).toContainText(/Paid \d{1,2}\/\d{1,2}\/\d{4}/);
    await expect(page.getByText('Scroll sideways to see every column')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Students' })).toBeVisible();
    await page.getByRole('button', { name: 'Court' }).click();
    await expect(page).toHaveURL(/sort=court&order=asc/);
    await expect(page.getByRole('columnheader', { name: 'Court' })).toHaveAttribute('aria-sort', 'ascending');
    await expectNoSeriousA11yViolations(page);

    await page.goto('/admin/modify-questions');
    await expect(page.getByRole('status')).toHaveText(/^Showing (\d+) of \1 questions$/);
    const links = page.getByRole('main').getByRole('link');
    const all = await links.count();
    expect(all).toBeGreaterThan(40);
    await page.getByLabel('Chapter', { exact: true }).selectOption({ label: 'Chapter 2' });
    await page.getByLabel('Search questions').fill('zzzz no such words');
    await expect(page.getByRole('status')).toHaveText(/^Showing 0 of \d+ questions$/);
    await page.getByLabel('Search questions').fill('');
    await expect.poll(() => links.count()).toBeLessThan(all);
    await expect(page.getByRole('heading', { level: 2, name: 'Chapter 1' })).toHaveCount(0);
  });
});

/** The strict court's id, as the registration page lists it. */
function strictCourtId(page: Page): Promise<number> {
  return courtIdNamed(page.request, E2E_STRICT_COURT.name);
}
