import type { Config } from '../../config.ts';

/**
 * What every email template answers, and what each is given. One function per email, its data
 * typed, so the words live here and the services only decide who receives what and when.
 */

/** An email's words: the subject and the plain-text body (html once the templates render it). */
export interface Email {
  subject: string;
  text: string;
  html?: string;
}

/** The languages the course is offered in (spec: the en/es widget). */
export type EmailLanguage = 'en' | 'es';

/** The school as its emails name it: SCHOOL_NAME, PUBLIC_URL and SUPPORT_EMAIL. */
export interface SchoolDetails {
  name: string;
  publicUrl: string;
  supportEmail: string;
}

/** The school's details from the configuration. */
export function schoolDetails(config: Pick<Config, 'schoolName' | 'publicUrl' | 'supportEmail'>): SchoolDetails {
  return { name: config.schoolName, publicUrl: config.publicUrl, supportEmail: config.supportEmail };
}

/**
 * The email in `language`, or in English, the school's language of record, for a language whose
 * text is not written yet (every email is English only so far).
 */
export function inLanguage(
  language: EmailLanguage,
  texts: { en: Email } & Partial<Record<EmailLanguage, Email>>,
): Email {
  return texts[language] ?? texts.en;
}
