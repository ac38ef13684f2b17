// The JSX runtime is named here, not only in a tsconfig: tsx also runs the server from the
// repository's root (the end-to-end server, the benches), where no tsconfig says it (decision 057).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Body, Container, Head, Hr, Html, Link, Section, Text } from '@react-email/components';
import { render } from '@react-email/render';
import { Fragment, type ReactNode } from 'react';
import type { Email, EmailLanguage, SchoolDetails } from './email.ts';

/**
 * The one layout every email is drawn in (decision 057): the school's name at the top, the
 * email's own words, and a footer with the school's address and its support address. Each email
 * is rendered twice from the same element: the HTML part, and the plain-text part react-email
 * derives from it, so the two always carry the same facts.
 */

const FOOTER: Record<EmailLanguage, { questions: string; sentBy: string }> = {
  en: { questions: 'Questions? Write to', sentBy: 'This email was sent by' },
  es: { questions: '¿Preguntas? Escríbanos a', sentBy: 'Este correo electrónico lo envió' },
};

const colors = { text: '#1f2937', muted: '#4b5563', link: '#1d4ed8', rule: '#d1d5db', band: '#1e3a8a' };

const styles = {
  body: { backgroundColor: '#f3f4f6', fontFamily: 'Arial, Helvetica, sans-serif', margin: 0, padding: '24px 0' },
  container: { backgroundColor: '#ffffff', maxWidth: '600px', padding: '0 0 16px', border: `1px solid ${colors.rule}` },
  header: { backgroundColor: colors.band, padding: '16px 24px' },
  schoolName: { color: '#ffffff', fontSize: '20px', fontWeight: 'bold', lineHeight: '28px', margin: 0 },
  content: { padding: '8px 24px' },
  paragraph: { color: colors.text, fontSize: '16px', lineHeight: '24px', margin: '12px 0' },
  link: { color: colors.link, textDecoration: 'underline', wordBreak: 'break-all' as const },
  rule: { borderColor: colors.rule, margin: '16px 24px' },
  footer: { color: colors.muted, fontSize: '13px', lineHeight: '20px', margin: '4px 24px' },
} as const;

/** One paragraph of an email's words. */
export function Paragraph({ children }: { children: ReactNode }) {
  return <Text style={styles.paragraph}>{children}</Text>;
}

/**
 * Lines of one paragraph (a receipt's details, what is left to do), under an optional heading:
 * the text part keeps one line per item, as the plain emails wrote them.
 */
export function Lines({ heading, lines }: { heading?: string; lines: readonly string[] }) {
  return (
    <Text style={styles.paragraph}>
      {heading}
      {lines.map((line, index) => (
        <Fragment key={line}>
          {heading !== undefined || index > 0 ? <br /> : null}
          {line}
        </Fragment>
      ))}
    </Text>
  );
}

/**
 * A link written out as its own address, so the plain-text part carries the same address the
 * HTML links to (react-email writes an address once when the link's text is the address).
 */
export function AddressLink({ href }: { href: string }) {
  return (
    <Link href={href} style={styles.link}>
      {href}
    </Link>
  );
}

/** A mailto link that reads as the address itself. */
export function MailLink({ address }: { address: string }) {
  return (
    <Link href={`mailto:${address}`} style={styles.link}>
      {address}
    </Link>
  );
}

/** The frame around every email: the school's name, the words, and the footer. */
export function EmailLayout({
  school,
  language,
  children,
}: {
  school: SchoolDetails;
  language: EmailLanguage;
  children: ReactNode;
}) {
  const footer = FOOTER[language];
  return (
    <Html lang={language} dir="ltr">
      <Head />
      <Body style={styles.body}>
        <Container style={styles.container}>
          {/* The band is the HTML's alone: the text part opens with the greeting, and names the
              school in its footer. */}
          <Section style={styles.header} data-skip-in-text="true">
            <Text style={styles.schoolName}>{school.name}</Text>
          </Section>
          <Section style={styles.content}>{children}</Section>
          <Hr style={styles.rule} />
          <Text style={styles.footer}>
            {`${footer.questions} `}
            <MailLink address={school.supportEmail} />.
          </Text>
          <Text style={styles.footer}>
            {`${footer.sentBy} ${school.name}, `}
            <AddressLink href={school.publicUrl} />
          </Text>
          {school.address ? <Text style={styles.footer}>{school.address}</Text> : null}
        </Container>
      </Body>
    </Html>
  );
}

/** An email's subject and its element, rendered to the HTML part and the plain-text part. */
export async function renderEmail(subject: string, element: ReactNode): Promise<Email> {
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { subject, html, text: `${text.trim()}\n` };
}
