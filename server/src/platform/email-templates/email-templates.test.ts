import { describe, expect, it } from 'vitest';
import {
  type CertificateEmailData,
  certificateToCourtEmail,
  certificateToStudentEmail,
  courtReceiptEmail,
} from './certificate-emails.tsx';
import type { Email, EmailLanguage } from './email.ts';
import { paymentReceiptEmail, refundReceiptEmail } from './payment-emails.tsx';
import { deadlineReminderEmail } from './reminder-emails.tsx';
import { staffPasswordLinkEmail } from './staff-emails.tsx';

/** Decision 057: every email is HTML with a plain-text part, in the reader's language, in one layout. */

const school = {
  name: 'Safe Roads Traffic School',
  publicUrl: 'https://school.example',
  supportEmail: 'help@school.example',
  address: '100 Example Street, Sacramento, CA 95814',
};

const certificate: CertificateEmailData = {
  school,
  certificateNumber: 'TS-2026-000123',
  studentName: 'José Núñez',
  courtName: 'Superior Court of Orange County',
  completionDate: '2026-11-20',
  caseNumber: 'CIT-4471',
};

const toStudent = {
  ...certificate,
  routing: 'student_and_court' as const,
  downloadPath: '/api/certificates/TS-2026-000123/download?expires=1&signature=abc',
  linkDays: 30,
};

/** Each fact is in the HTML part and in the plain-text part alike. */
function expectInBothParts(email: Email, facts: string[]): void {
  for (const fact of facts) {
    expect(email.text, `text part: ${fact}`).toContain(fact);
    expect(email.html, `html part: ${fact}`).toContain(fact);
  }
}

/** The layout's facts: the school's name, its addresses and its support address, linked in the HTML. */
function expectTheSchool(email: Email): void {
  expectInBothParts(email, [school.name, school.publicUrl, school.supportEmail, school.address]);
  expect(email.html).toContain(`href="mailto:${school.supportEmail}"`);
  expect(email.html).toContain(`href="${school.publicUrl}"`);
}

function expectLanguage(email: Email, language: EmailLanguage): void {
  expect(email.html).toMatch(new RegExp(`<html[^>]* lang="${language}"`));
}

describe('email templates', () => {
  describe('the certificate to the student', () => {
    it('carries the name, the number, the download and sign-in links and the court copy, in English', async () => {
      const email = await certificateToStudentEmail(toStudent, 'en');
      expect(email.subject).toBe('Your certificate of completion (TS-2026-000123)');
      expectInBothParts(email, [
        'Hello José Núñez',
        'TS-2026-000123',
        `${school.publicUrl}/login`,
        'A copy has been sent to the Superior Court of Orange County.',
        'for the next 30 days',
      ]);
      // The signed link's & is escaped in the HTML attribute and plain in the text.
      expect(email.text).toContain(`${school.publicUrl}${toStudent.downloadPath}`);
      expect(email.html).toContain(`href="${school.publicUrl}${toStudent.downloadPath.replaceAll('&', '&amp;')}"`);
      expectTheSchool(email);
      expectLanguage(email, 'en');
    });

    it('says the same in Spanish for a student who reads Spanish, the layout too', async () => {
      const email = await certificateToStudentEmail(toStudent, 'es');
      expect(email.subject).toBe('Su certificado de finalización (TS-2026-000123)');
      expectInBothParts(email, [
        'Hola, José Núñez:',
        'TS-2026-000123',
        `${school.publicUrl}/login`,
        'Se envió una copia a su tribunal (Superior Court of Orange County).',
        'durante los próximos 30 días',
        '¿Preguntas? Escríbanos a',
      ]);
      expect(email.text).toContain(`${school.publicUrl}${toStudent.downloadPath}`);
      expect(email.text).not.toMatch(/Congratulations|Hello|Questions\?/);
      expectTheSchool(email);
      expectLanguage(email, 'es');
    });

    it('says only what the school does with the court copy, in each language (decision 024)', async () => {
      const studentOnly = { ...toStudent, routing: 'student_only' as const };
      const stateReport = { ...toStudent, routing: 'held_for_state_report' as const };
      expect((await certificateToStudentEmail(studentOnly, 'en')).text).toContain(
        'Please give a copy to the Superior Court of Orange County yourself',
      );
      expect((await certificateToStudentEmail(studentOnly, 'es')).text).toContain(
        'Entregue usted mismo una copia a su tribunal (Superior Court of Orange County)',
      );
      expect((await certificateToStudentEmail(stateReport, 'en')).text).toContain(
        'The school reports your completion to the state',
      );
      expect((await certificateToStudentEmail(stateReport, 'es')).text).toContain(
        'La escuela informa al estado que usted terminó el curso',
      );
      expect((await certificateToStudentEmail(stateReport, 'en')).text).not.toContain('A copy has been sent');
    });

    it('names the certificate a correction replaces, in both parts and both languages (decision 025)', async () => {
      const corrected = { ...toStudent, certificateNumber: 'TS-2026-000200', replaces: 'TS-2026-000123' };
      const english = await certificateToStudentEmail(corrected, 'en');
      expect(english.subject).toBe('Your corrected certificate of completion (TS-2026-000200)');
      expectInBothParts(english, ['Corrected certificate: replaces TS-2026-000123.']);
      const spanish = await certificateToStudentEmail(corrected, 'es');
      expect(spanish.subject).toBe('Su certificado de finalización corregido (TS-2026-000200)');
      expectInBothParts(spanish, ['Certificado corregido: reemplaza al TS-2026-000123.']);
    });

    it('escapes what a student typed in the HTML part, so a name cannot add markup', async () => {
      const email = await certificateToStudentEmail({ ...toStudent, studentName: '<b>Eve</b> & Co' }, 'en');
      expect(email.html).toContain('&lt;b&gt;Eve&lt;/b&gt; &amp; Co');
      expect(email.html).not.toContain('<b>Eve');
      expect(email.text).toContain('Hello <b>Eve</b> & Co,');
    });
  });

  describe("the court's copy", () => {
    it('stays English, the court’s language of record, whatever the student reads, with the verify link and case number', async () => {
      for (const language of ['en', 'es'] as const) {
        const email = await certificateToCourtEmail(certificate, language);
        expect(email.subject).toBe('Traffic school completion: José Núñez (TS-2026-000123)');
        expectInBothParts(email, [
          'Dear Clerk of the Superior Court of Orange County',
          'completed the court-assigned traffic school course at Safe Roads Traffic School on 2026-11-20',
          'Case or citation number: CIT-4471',
          `${school.publicUrl}/verify/TS-2026-000123`,
        ]);
        expect(email.text).not.toContain('Hola');
        expectTheSchool(email);
        expectLanguage(email, 'en');
      }
    });

    it('says which certificate a correction replaces, and leaves out a case number there is none of', async () => {
      const email = await certificateToCourtEmail(
        { ...certificate, caseNumber: undefined, certificateNumber: 'TS-2026-000200', replaces: 'TS-2026-000123' },
        'en',
      );
      expect(email.subject).toBe('Corrected certificate: José Núñez (TS-2026-000200)');
      expectInBothParts(email, ['Corrected certificate: replaces TS-2026-000123.']);
      expect(email.text).not.toContain('Case or citation number');
    });
  });

  describe("the court's acknowledgement", () => {
    it('tells the student, in English or Spanish, with the number and where to see the certificate', async () => {
      const data = { school, firstName: 'José', certificateNumber: 'TS-2026-000123' };
      const english = await courtReceiptEmail(data, 'en');
      expect(english.subject).toBe('Your court received your certificate (TS-2026-000123)');
      expectInBothParts(english, ['Hello José', 'TS-2026-000123', `${school.publicUrl}/certificate`]);
      expectTheSchool(english);
      const spanish = await courtReceiptEmail(data, 'es');
      expect(spanish.subject).toBe('Su tribunal recibió su certificado (TS-2026-000123)');
      expectInBothParts(spanish, [
        'Hola, José:',
        'Su tribunal confirmó',
        'TS-2026-000123',
        `${school.publicUrl}/certificate`,
      ]);
      expectTheSchool(spanish);
      expectLanguage(spanish, 'es');
    });
  });

  describe('the staff set-password link', () => {
    it('carries the name, the username, the one-time link and the sign-in page, in English only', async () => {
      const data = {
        school,
        name: 'Jane Clerk',
        username: 'Jane.Clerk',
        reason: 'new_account' as const,
        setPasswordUrl: `${school.publicUrl}/set-password#token=abc_123`,
        expiresAt: new Date('2026-11-25T15:00:00Z'),
        linkHours: 72,
        timeZone: 'America/Los_Angeles',
      };
      for (const language of ['en', 'es'] as const) {
        const email = await staffPasswordLinkEmail(data, language);
        expect(email.subject).toBe('Set your password for Safe Roads Traffic School');
        expectInBothParts(email, [
          'Hello Jane Clerk',
          'Your username is Jane.Clerk.',
          data.setPasswordUrl,
          'November 25, 2026 at 7:00 AM PST',
          `${school.publicUrl}/admin-login`,
        ]);
        expectTheSchool(email);
        expectLanguage(email, 'en');
      }
      const newLink = await staffPasswordLinkEmail({ ...data, reason: 'new_link' }, 'en');
      expectInBothParts(newLink, ['has sent you a link to choose a new password', 'username Jane.Clerk']);
    });
  });

  describe('the payment and refund receipts (decision 058)', () => {
    const payment = {
      school,
      studentName: 'José Núñez',
      reference: 12,
      amountCents: 2995,
      currency: 'usd',
      at: new Date('2026-11-20T18:00:00Z'),
      timeZone: 'America/Los_Angeles',
      courtName: 'Superior Court of Orange County',
      cardLast4: '4242',
    };

    it('carries the amount, the receipt number, the card and the court in both parts, in English and Spanish', async () => {
      const english = await paymentReceiptEmail(payment, 'en');
      expect(english.subject).toBe('Your receipt from Safe Roads Traffic School ($29.95)');
      expectInBothParts(english, [
        'Hello José Núñez,',
        'Receipt number: P-12',
        'Amount paid: $29.95',
        'Paid by card ending in 4242',
        'for the Superior Court of Orange County',
        'November 20, 2026',
      ]);
      expect(english.text).toContain('Receipt number: P-12\nDate: November 20, 2026\nAmount paid: $29.95\n');
      expectTheSchool(english);
      const spanish = await paymentReceiptEmail(payment, 'es');
      expect(spanish.subject).toBe('Su recibo de Safe Roads Traffic School ($29.95)');
      expectInBothParts(spanish, [
        'Hola, José Núñez:',
        'Número de recibo: P-12',
        'termina en 4242',
        '20 de noviembre de 2026',
      ]);
      expectTheSchool(spanish);
      expectLanguage(spanish, 'es');
    });

    it('says what a refund returns, on which payment, and when the course closed with it', async () => {
      const refund = { ...payment, reference: 7, amountCents: 1000, paymentReference: 12, courseClosed: true };
      const english = await refundReceiptEmail(refund, 'en');
      expect(english.subject).toBe('Your refund from Safe Roads Traffic School ($10.00)');
      expectInBothParts(english, [
        'We have refunded $10.00 of your payment P-12.',
        'Refund number: R-7',
        'Returned to the card ending in 4242',
        'your course is closed',
      ]);
      const spanish = await refundReceiptEmail({ ...refund, courseClosed: false }, 'es');
      expect(spanish.subject).toBe('Su reembolso de Safe Roads Traffic School ($10.00)');
      expectInBothParts(spanish, ['Le reembolsamos $10.00 de su pago P-12.', 'Número de reembolso: R-7']);
      expect(spanish.text).not.toContain('queda cerrado');
      expectLanguage(spanish, 'es');
    });
  });

  describe('the deadline reminders (decision 059)', () => {
    const reminder = {
      school,
      firstName: 'José',
      kind: 'court' as const,
      date: '2026-12-04',
      daysLeft: 7,
      windowEndsTheSameDay: false,
      chaptersLeft: [{ number: 3, title: 'Impaired and Distracted Driving' }],
      finalLeft: true,
      minutesLeft: 140,
      continuePath: '/content/3',
    };

    it('says the date, what is left line by line and where to continue, in both parts', async () => {
      const email = await deadlineReminderEmail(reminder, 'en');
      expect(email.subject).toBe('Your certificate is due to your court in 7 days');
      expectInBothParts(email, [
        'Hello José,',
        'by December 4, 2026, 7 days from today.',
        '- Chapter 3: Impaired and Distracted Driving',
        '- The final exam',
        '- 2 hours 20 minutes more of study time',
        `${school.publicUrl}/content/3`,
      ]);
      expect(email.text).toMatch(/^Hello José,/);
      expect(email.text).toContain(
        'Still to do:\n- Chapter 3: Impaired and Distracted Driving\n- The final exam\n- 2 hours 20 minutes',
      );
      expectTheSchool(email);
    });

    it('writes a Spanish student’s reminder in Spanish', async () => {
      const email = await deadlineReminderEmail(
        { ...reminder, kind: 'window', chaptersLeft: [{ number: 3, title: 'Manejo con distracciones' }] },
        'es',
      );
      expect(email.subject).toBe('Le quedan 7 días para terminar su curso de escuela de tránsito');
      expectInBothParts(email, ['Hola, José:', '- Capítulo 3: Manejo con distracciones', '- El examen final']);
      expect(email.text).toMatch(/^Hola, José:/);
      expect(email.text).not.toMatch(/Still to do|Hello/);
      expectLanguage(email, 'es');
    });
  });
});
