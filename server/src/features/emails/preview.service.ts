import type { EmailLanguageCode, EmailPreview, EmailTemplateSummary } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import {
  type CertificateEmailData,
  certificateToCourtEmail,
  certificateToStudentEmail,
  courtReceiptEmail,
} from '../../platform/email-templates/certificate-emails.tsx';
import {
  type Email,
  type EmailLanguage,
  type SchoolDetails,
  schoolDetails,
} from '../../platform/email-templates/email.ts';
import {
  type PaymentReceiptData,
  paymentReceiptEmail,
  refundReceiptEmail,
} from '../../platform/email-templates/payment-emails.tsx';
import {
  deadlineReminderEmail,
  type ReminderEmailData,
  type ReminderKind,
} from '../../platform/email-templates/reminder-emails.tsx';
import { staffPasswordLinkEmail } from '../../platform/email-templates/staff-emails.tsx';
import { notFound } from '../../plugins/errors.ts';

/**
 * Staff preview every email the school sends (decision 057): each template rendered by its own
 * function from sample data, with the school's real name, address and support address, so what
 * staff read is what a student, a clerk or a colleague receives. Nothing is sent or stored.
 */

interface SampleContext {
  school: SchoolDetails;
  now: Date;
  timeZone: string;
}

interface PreviewableTemplate {
  audience: EmailTemplateSummary['audience'];
  /** English first: the school's language of record, which every template is written in. */
  languages: readonly EmailLanguage[];
  render: (sample: SampleContext, language: EmailLanguage) => Promise<Email>;
}

const DAY_MS = 86_400_000;

/** A certificate as the samples show it: a made-up student of a made-up court. */
function sampleCertificate(school: SchoolDetails): CertificateEmailData {
  return {
    school,
    certificateNumber: 'TS-2026-000123',
    studentName: 'Lucía Núñez',
    courtName: 'Superior Court of Fresno County',
    completionDate: '2026-11-20',
    caseNumber: 'CIT-4471',
  };
}

/** The correction's reissue of the sample certificate (decision 025). */
function sampleCorrection(school: SchoolDetails): CertificateEmailData {
  return { ...sampleCertificate(school), certificateNumber: 'TS-2026-000200', replaces: 'TS-2026-000123' };
}

function toStudent(certificate: CertificateEmailData, now: Date) {
  const expires = Math.floor(now.getTime() / 1000) + 30 * 86_400;
  return {
    ...certificate,
    routing: 'student_and_court' as const,
    downloadPath: `/api/certificates/${certificate.certificateNumber}/pdf?expires=${String(expires)}&signature=sample`,
    linkDays: 30,
  };
}

/** A card payment as the samples show it. */
function samplePayment(school: SchoolDetails, now: Date, timeZone: string): PaymentReceiptData {
  return {
    school,
    studentName: 'Lucía Núñez',
    reference: 12,
    amountCents: 2995,
    currency: 'usd',
    at: now,
    timeZone,
    courtName: 'Superior Court of Fresno County',
    cardLast4: '4242',
  };
}

/** A reminder as the samples show it: a week before the date, two chapters and the final left. */
function sampleReminder(
  school: SchoolDetails,
  now: Date,
  kind: ReminderKind,
  language: EmailLanguage,
): ReminderEmailData {
  // The course's own chapters 3 and 4 (content/course/chapters.json).
  const titles =
    language === 'es'
      ? ['Manejo bajo los efectos de sustancias y con distracciones', 'Compartir el camino y condiciones difíciles']
      : ['Impaired and Distracted Driving', 'Sharing the Road and Hard Conditions'];
  return {
    school,
    firstName: 'Lucía',
    kind,
    date: new Date(now.getTime() + 7 * DAY_MS).toISOString().slice(0, 10),
    daysLeft: 7,
    windowEndsTheSameDay: false,
    chaptersLeft: titles.map((title, index) => ({ number: index + 3, title })),
    finalLeft: true,
    minutesLeft: 140,
    continuePath: '/content/3',
  };
}

const BOTH: readonly EmailLanguage[] = ['en', 'es'];
const ENGLISH_ONLY: readonly EmailLanguage[] = ['en'];

/** Every template staff may preview, by the name the URL carries. */
const TEMPLATES: Record<string, PreviewableTemplate> = {
  'certificate-to-student': {
    audience: 'student',
    languages: BOTH,
    render: ({ school, now }, language) =>
      certificateToStudentEmail(toStudent(sampleCertificate(school), now), language),
  },
  'certificate-to-court': {
    audience: 'court',
    languages: ENGLISH_ONLY,
    render: ({ school }, language) => certificateToCourtEmail(sampleCertificate(school), language),
  },
  'corrected-certificate-to-student': {
    audience: 'student',
    languages: BOTH,
    render: ({ school, now }, language) =>
      certificateToStudentEmail(toStudent(sampleCorrection(school), now), language),
  },
  'corrected-certificate-to-court': {
    audience: 'court',
    languages: ENGLISH_ONLY,
    render: ({ school }, language) => certificateToCourtEmail(sampleCorrection(school), language),
  },
  'court-receipt': {
    audience: 'student',
    languages: BOTH,
    render: ({ school }, language) =>
      courtReceiptEmail({ school, firstName: 'Lucía', certificateNumber: 'TS-2026-000123' }, language),
  },
  'payment-receipt': {
    audience: 'student',
    languages: BOTH,
    render: ({ school, now, timeZone }, language) =>
      paymentReceiptEmail(samplePayment(school, now, timeZone), language),
  },
  'refund-receipt': {
    audience: 'student',
    languages: BOTH,
    render: ({ school, now, timeZone }, language) =>
      refundReceiptEmail(
        {
          ...samplePayment(school, now, timeZone),
          reference: 7,
          amountCents: 1000,
          paymentReference: 12,
          courseClosed: false,
        },
        language,
      ),
  },
  'deadline-reminder-court': {
    audience: 'student',
    languages: BOTH,
    render: ({ school, now }, language) =>
      deadlineReminderEmail(sampleReminder(school, now, 'court', language), language),
  },
  'deadline-reminder-window': {
    audience: 'student',
    languages: BOTH,
    render: ({ school, now }, language) =>
      deadlineReminderEmail(sampleReminder(school, now, 'window', language), language),
  },
  'staff-set-password': {
    audience: 'staff',
    languages: ENGLISH_ONLY,
    render: ({ school, now, timeZone }, language) =>
      staffPasswordLinkEmail(
        {
          school,
          name: 'Jordan Lee',
          username: 'jordan.lee',
          reason: 'new_account',
          setPasswordUrl: `${school.publicUrl}/set-password#token=sample`,
          expiresAt: new Date(now.getTime() + 3 * DAY_MS),
          linkHours: 72,
          timeZone,
        },
        language,
      ),
  },
};

/** The templates, in the order staff read them. */
export function listEmailTemplates(): EmailTemplateSummary[] {
  return Object.entries(TEMPLATES).map(([name, template]) => ({
    name,
    audience: template.audience,
    languages: [...template.languages],
  }));
}

/**
 * One template rendered from sample data in `language`, or in English for a template written in
 * English only (the court's copy, staff emails), as it is sent.
 */
export async function previewEmailTemplate(
  deps: { config: Config; clock: Clock },
  name: string,
  language: EmailLanguageCode,
): Promise<EmailPreview> {
  const template = Object.hasOwn(TEMPLATES, name) ? TEMPLATES[name] : undefined;
  if (!template) throw notFound('No such email template.');
  const written = template.languages.includes(language) ? language : 'en';
  const sample = { school: schoolDetails(deps.config), now: deps.clock.now(), timeZone: deps.config.schoolTimeZone };
  const email = await template.render(sample, written);
  return { name, language: written, subject: email.subject, html: email.html, text: email.text };
}
