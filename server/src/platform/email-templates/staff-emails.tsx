// The JSX runtime is named here, not only in a tsconfig: tsx also runs the server from the
// repository's root (the end-to-end server, the benches), where no tsconfig says it (decision 057).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import type { Email, EmailLanguage, SchoolDetails } from './email.ts';
import { AddressLink, EmailLayout, Paragraph, renderEmail } from './layout.tsx';

/** What a set-password email is given. */
export interface StaffPasswordLinkData {
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
}

/**
 * A staff member's one-time set-password link (never a password): for a new account, or a new
 * link a super_admin sent. English only: staff work in the school's language of record (decision
 * 057); the language is taken only so that every template is called alike.
 */
export function staffPasswordLinkEmail(data: StaffPasswordLinkData, _language: EmailLanguage): Promise<Email> {
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
  return renderEmail(
    `Set your password for ${school.name}`,
    <EmailLayout school={school} language="en">
      <Paragraph>{`Hello ${data.name},`}</Paragraph>
      <Paragraph>{opening}</Paragraph>
      <Paragraph>
        {'Choose your password here: '}
        <AddressLink href={data.setPasswordUrl} />
      </Paragraph>
      <Paragraph>
        {`The link works once and expires on ${expires} (${String(data.linkHours)} hours). After choosing it, sign in at `}
        <AddressLink href={`${school.publicUrl}/admin-login`} />.
      </Paragraph>
      <Paragraph>If you did not expect this email, you can ignore it.</Paragraph>
    </EmailLayout>,
  );
}
