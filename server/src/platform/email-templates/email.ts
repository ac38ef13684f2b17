import type { Config } from '../../config.ts';

/**
 * What every email template answers, and what each is given. One function per email, its data
 * typed, so the words live here and the services only decide who receives what and when. The
 * templates are React elements in one layout (layout.tsx), rendered by react-email to an HTML
 * part and the plain-text part derived from it (decision 057).
 */

/**
 * An email's words: the subject, the plain-text part and the HTML part, rendered from one element
 * in the layout (layout.tsx); a sender passes both parts to the mailer.
 */
export interface Email {
  subject: string;
  text: string;
  html: string;
}

/** The languages the course is offered in (spec: the en/es widget). */
export type EmailLanguage = 'en' | 'es';

/** The school as its emails name it: SCHOOL_NAME, PUBLIC_URL, SUPPORT_EMAIL and SCHOOL_ADDRESS. */
export interface SchoolDetails {
  name: string;
  publicUrl: string;
  supportEmail: string;
  /** The school's postal address (decision 062), in the layout's footer (decision 057). */
  address?: string | undefined;
}

/** The school's details from the configuration. */
export function schoolDetails(
  config: Pick<Config, 'schoolName' | 'publicUrl' | 'supportEmail' | 'schoolAddress'>,
): SchoolDetails {
  return {
    name: config.schoolName,
    publicUrl: config.publicUrl,
    supportEmail: config.supportEmail,
    address: config.schoolAddress,
  };
}
