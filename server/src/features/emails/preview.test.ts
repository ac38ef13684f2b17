import type { EmailPreview, EmailTemplateSummary } from '@ts/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { signedInStaff, signInPaidStudent } from '../../testing/course.ts';
import { createCourt } from '../../testing/factories.ts';

/** Decision 057: staff preview every email template, in each language, rendered from sample data. */
describe('the email templates preview (/api/admin/emails)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists every template with who receives it and the languages it is written in', async () => {
    const admin = await signedInStaff(t, 'admin');
    const response = await admin.get('/api/admin/emails');
    expect(response.statusCode, response.body).toBe(200);
    const templates = response.json<EmailTemplateSummary[]>();
    const byName = new Map(templates.map((template) => [template.name, template]));
    expect(byName.get('certificate-to-student')).toEqual({
      name: 'certificate-to-student',
      audience: 'student',
      languages: ['en', 'es'],
    });
    expect(byName.get('certificate-to-court')).toEqual({
      name: 'certificate-to-court',
      audience: 'court',
      languages: ['en'],
    });
    expect(byName.get('staff-set-password')?.languages).toEqual(['en']);
    for (const name of [
      'corrected-certificate-to-student',
      'corrected-certificate-to-court',
      'court-receipt',
      'payment-receipt',
      'refund-receipt',
      'deadline-reminder-court',
      'deadline-reminder-window',
    ]) {
      expect(byName.has(name), name).toBe(true);
    }
  });

  it('renders every template in every language it lists, with the school in both the HTML and the text', async () => {
    const superAdmin = await signedInStaff(t, 'super_admin');
    const templates = (await superAdmin.get('/api/admin/emails')).json<EmailTemplateSummary[]>();
    for (const template of templates) {
      for (const language of template.languages) {
        const response = await superAdmin.get(`/api/admin/emails/${template.name}?language=${language}`);
        expect(response.statusCode, `${template.name} ${language}`).toBe(200);
        const preview = response.json<EmailPreview>();
        expect(preview.language).toBe(language);
        expect(preview.subject).not.toBe('');
        expect(preview.html).toMatch(new RegExp(`<html[^>]* lang="${language}"`));
        for (const part of [preview.html, preview.text]) {
          expect(part).toContain(t.config.schoolName);
          expect(part).toContain(t.config.supportEmail);
          expect(part).toContain(t.config.publicUrl);
          expect(part).toContain(t.config.schoolAddress);
        }
      }
    }
  });

  it("answers a student's email in Spanish when asked, and in English by default", async () => {
    const admin = await signedInStaff(t, 'admin');
    const spanish = (await admin.get('/api/admin/emails/certificate-to-student?language=es')).json<EmailPreview>();
    expect(spanish.subject).toBe('Su certificado de finalización (TS-2026-000123)');
    expect(spanish.text).toContain('Hola, Lucía Núñez:');
    expect(spanish.html).toContain('Hola, Lucía Núñez:');
    const english = (await admin.get('/api/admin/emails/certificate-to-student')).json<EmailPreview>();
    expect(english.language).toBe('en');
    expect(english.subject).toBe('Your certificate of completion (TS-2026-000123)');
    const corrected = (
      await admin.get('/api/admin/emails/corrected-certificate-to-student?language=es')
    ).json<EmailPreview>();
    expect(corrected.text).toContain('Certificado corregido: reemplaza al TS-2026-000123.');
  });

  it("answers the court's copy in English when Spanish is asked for, as it is sent", async () => {
    const admin = await signedInStaff(t, 'admin');
    const response = await admin.get('/api/admin/emails/certificate-to-court?language=es');
    expect(response.statusCode).toBe(200);
    const preview = response.json<EmailPreview>();
    expect(preview.language).toBe('en');
    expect(preview.subject).toBe('Traffic school completion: Lucía Núñez (TS-2026-000123)');
    expect(preview.text).toContain(`${t.config.publicUrl}/verify/TS-2026-000123`);
  });

  it('answers 404 for a template that does not exist, and 400 for a language it does not know', async () => {
    const admin = await signedInStaff(t, 'admin');
    const unknown = await admin.get('/api/admin/emails/no-such-email');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
    // A name an object answers to is no template either.
    expect((await admin.get('/api/admin/emails/constructor')).statusCode).toBe(404);
    const badLanguage = await admin.get('/api/admin/emails/court-receipt?language=fr');
    expect(badLanguage.statusCode).toBe(400);
    expect(badLanguage.json<{ error: { code: string } }>().error.code).toBe('VALIDATION_FAILED');
  });

  it('refuses clerks, court-limited admins and students (403) as the other admin calls do, and a stranger (401)', async () => {
    const court = await createCourt(t.db);
    const refused = [
      await signedInStaff(t, 'clerk'),
      await signedInStaff(t, 'admin', court.id),
      (await signInPaidStudent(t)).client,
    ];
    for (const caller of refused) {
      expect((await caller.get('/api/admin/emails')).statusCode).toBe(403);
      expect((await caller.get('/api/admin/emails/court-receipt?language=es')).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/emails' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/emails/court-receipt' })).statusCode).toBe(401);
  });

  describe('the HTML as a document of its own, for the preview frame', () => {
    it('answers the very HTML of the preview, under a policy of its own: inline styles, no script, an origin of its own', async () => {
      const admin = await signedInStaff(t, 'admin');
      const preview = (await admin.get('/api/admin/emails/court-receipt?language=es')).json<EmailPreview>();
      const document = await admin.get('/api/admin/emails/court-receipt/html?language=es');
      expect(document.statusCode).toBe(200);
      expect(document.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(document.body).toBe(preview.html);
      const policy = String(document.headers['content-security-policy']);
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("style-src 'unsafe-inline'");
      expect(policy).toContain('sandbox allow-scripts');
      // Scripts fall under default-src 'none': none of the document's own runs.
      expect(policy).not.toContain('script-src');
      expect(policy).not.toContain('allow-same-origin');
      expect(document.headers['cache-control']).toBe('no-store');
    });

    it('is refused as the preview is: 401 to a stranger, 403 to a clerk, 404 for an unknown template', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/admin/emails/court-receipt/html' })).statusCode).toBe(401);
      const clerk = await signedInStaff(t, 'clerk');
      expect((await clerk.get('/api/admin/emails/court-receipt/html')).statusCode).toBe(403);
      const admin = await signedInStaff(t, 'super_admin');
      expect((await admin.get('/api/admin/emails/no-such-email/html')).statusCode).toBe(404);
      expect((await admin.get('/api/admin/emails/court-receipt/html?language=fr')).statusCode).toBe(400);
    });
  });
});
