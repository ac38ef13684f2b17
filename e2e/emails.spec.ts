import { expect, expectNoSeriousA11yViolations, signInAsAdmin, test } from './fixtures.ts';

/** Decision 057: staff preview every email the school sends, in English and Spanish. */
test('an admin previews a student’s email in English, switches to Spanish and reads it in Spanish, on a phone too', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Email Templates' }).click();
  await expect(page).toHaveURL(/\/admin\/emails$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Email Templates' })).toBeVisible();

  const main = page.getByRole('main');
  const subject = main.getByRole('region', { name: 'Subject' });
  const plainText = main.getByRole('region', { name: 'Plain text' });
  await main.getByLabel('Email', { exact: true }).selectOption({ label: 'Certificate to the student' });
  await expect(subject).toContainText('Your certificate of completion (TS-2026-000123)');
  await expect(plainText).toContainText('Congratulations on completing your traffic school course.');
  const email = page.frameLocator('iframe[title="Certificate to the student: the email as it looks"]');
  await expect(email.getByText('Congratulations on completing your traffic school course.')).toBeVisible();

  await main.getByLabel('Language', { exact: true }).selectOption({ label: 'Español' });
  await expect(page).toHaveURL(/language=es/);
  await expect(subject).toContainText('Su certificado de finalización (TS-2026-000123)');
  await expect(plainText).toContainText('Hola, Lucía Núñez:');
  await expect(email.getByText('Hola, Lucía Núñez:')).toBeVisible();
  // The layout's inline styles apply in the frame (its document's own policy admits them): the
  // school's name is white on the band at the top.
  await expect(email.getByText('Safe Roads Traffic School').first()).toHaveCSS('color', 'rgb(255, 255, 255)');
  await expect(email.getByRole('link', { name: 'help@school.example' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The court's copy is English whatever language is asked for, and the page says so.
  await main.getByLabel('Email', { exact: true }).selectOption({ label: 'Certificate to the court' });
  await expect(subject).toContainText('Traffic school completion: Lucía Núñez (TS-2026-000123)');
  await expect(main.getByText('This email is sent in English only, so it is shown in English.')).toBeVisible();

  await page.setViewportSize({ width: 375, height: 740 });
  await main.getByLabel('Email', { exact: true }).selectOption({ label: 'The court received the certificate' });
  await expect(subject).toContainText('Su tribunal recibió su certificado (TS-2026-000123)');
  // Nothing sideways on a phone: the page is as wide as the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page);
});
