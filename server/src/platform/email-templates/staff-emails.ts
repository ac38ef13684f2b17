import { type Email, type EmailLanguage, inLanguage, type SchoolDetails } from './email.ts';

/**
 * A staff member's one-time set-password link (plain text, never a password): for a new account,
 * or a new link a super_admin sent.
 */
export function staffPasswordLinkEmail(
  data: {
    school: SchoolDetails;
    name: string;
    username: string;
    reason: 'new_account' | 'new_link';
    setPasswordUrl: string;
    expiresAt: Date;
    /** How long the link works, as the email states it. */
    linkHours: number;
    /** SCHOOL_TIME_ZONE: the expiry is written on the school's clock. */
    timeZone: string;
  },
  language: EmailLanguage,
): Email {
  const { school } = data;
  const expires = new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: data.timeZone,
    timeZoneName: 'short',
  }).format(data.expiresAt);
  const opening =
    data.reason === 'new_account'
      ? `A staff account has been created for you at ${school.name}. Your username is ${data.username}.`
      : `A super admin at ${school.name} has sent you a link to choose a new password for your staff account (username ${data.username}).`;
  return inLanguage(language, {
    en: {
      subject: `Set your password for ${school.name}`,
      text:
        `Hello ${data.name},\n\n${opening}\n\n` +
        `Choose your password here:\n${data.setPasswordUrl}\n\n` +
        `The link works once and expires on ${expires} (${String(data.linkHours)} hours). ` +
        `After choosing it, sign in at ${school.publicUrl}/admin-login.\n\n` +
        `If you did not expect this email, you can ignore it.\n\n${school.name}\n`,
    },
  });
}
