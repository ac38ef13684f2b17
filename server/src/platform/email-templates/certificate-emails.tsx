// The JSX runtime is named here, not only in a tsconfig: tsx also runs the server from the
// repository's root (the end-to-end server, the benches), where no tsconfig says it (decision 057).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import type { RulesProfile } from '@ts/contract';
import type { Email, EmailLanguage, SchoolDetails } from './email.ts';
import { AddressLink, EmailLayout, Paragraph, renderEmail } from './layout.tsx';

/** What a certificate email says about the certificate, from its snapshot. */
export interface CertificateEmailData {
  school: SchoolDetails;
  certificateNumber: string;
  studentName: string;
  courtName: string;
  /** ISO date 'YYYY-MM-DD', as the certificate states it. */
  completionDate: string;
  caseNumber?: string | undefined;
  /** A correction's reissue (decision 025): the number of the certificate it replaces. */
  replaces?: string | undefined;
}

type CertificateRouting = RulesProfile['certificate']['routing'];

/** What the student's email says about the court's copy: only what the school really does (decision 024). */
const WHERE_THE_COURT_COPY_GOES: Record<EmailLanguage, Record<CertificateRouting, (court: string) => string>> = {
  en: {
    student_and_court: (court) => `A copy has been sent to the ${court}.`,
    student_only: (court) => `Please give a copy to the ${court} yourself, as your court asks.`,
    held_for_state_report: () =>
      `The school reports your completion to the state; you will see the filing date on your Certificates page.`,
  },
  es: {
    student_and_court: (court) => `Se envió una copia a su tribunal (${court}).`,
    student_only: (court) => `Entregue usted mismo una copia a su tribunal (${court}), como lo pide el tribunal.`,
    held_for_state_report: () =>
      `La escuela informa al estado que usted terminó el curso; verá la fecha del informe en su página de Certificados.`,
  },
};

/** A correction's reissue says what it replaces, to the student and the court alike (decision 025). */
function correctedLine(replaces: string | undefined, language: EmailLanguage) {
  if (!replaces) return null;
  return (
    <Paragraph>
      {language === 'es'
        ? `Certificado corregido: reemplaza al ${replaces}.`
        : `Corrected certificate: replaces ${replaces}.`}
    </Paragraph>
  );
}

/** What the student's email is given beyond the certificate's own facts. */
export interface CertificateToStudentData extends CertificateEmailData {
  /** Who the rules profile sends the certificate to: what the email says about the court's copy. */
  routing: CertificateRouting;
  /** The signed download path (download-links.ts), under the school's address. */
  downloadPath: string;
  /** How many days the signed link works. */
  linkDays: number;
}

/**
 * The certificate to the student, its PDF attached (decision 010), with a signed download link,
 * in the student's language (decision 057).
 */
export function certificateToStudentEmail(data: CertificateToStudentData, language: EmailLanguage): Promise<Email> {
  const { school } = data;
  const courtCopy = WHERE_THE_COURT_COPY_GOES[language][data.routing](data.courtName);
  const download = <AddressLink href={`${school.publicUrl}${data.downloadPath}`} />;
  const signIn = <AddressLink href={`${school.publicUrl}/login`} />;
  const days = String(data.linkDays);
  if (language === 'es') {
    return renderEmail(
      `Su certificado de finalización ${data.replaces ? 'corregido ' : ''}(${data.certificateNumber})`,
      <EmailLayout school={school} language="es">
        <Paragraph>{`Hola, ${data.studentName}:`}</Paragraph>
        {correctedLine(data.replaces, 'es')}
        <Paragraph>
          {`Felicitaciones por terminar su curso de la escuela de tránsito. Adjuntamos su certificado de finalización (${data.certificateNumber}). ${courtCopy}`}
        </Paragraph>
        <Paragraph>
          {`También puede descargarlo durante los próximos ${days} días en `}
          {download}
          {' o en cualquier momento desde la página Certificados después de iniciar sesión en '}
          {signIn}.
        </Paragraph>
      </EmailLayout>,
    );
  }
  return renderEmail(
    `Your ${data.replaces ? 'corrected ' : ''}certificate of completion (${data.certificateNumber})`,
    <EmailLayout school={school} language="en">
      <Paragraph>{`Hello ${data.studentName},`}</Paragraph>
      {correctedLine(data.replaces, 'en')}
      <Paragraph>
        {`Congratulations on completing your traffic school course. Your certificate of completion (${data.certificateNumber}) is attached. ${courtCopy}`}
      </Paragraph>
      <Paragraph>
        {`You can also download it for the next ${days} days at `}
        {download}
        {' or any time from the Certificates page after signing in at '}
        {signIn}.
      </Paragraph>
    </EmailLayout>,
  );
}

/**
 * The certificate to the court's clerk, its PDF attached, with where its authenticity is checked.
 * Always English, the court's language of record, whatever the student reads (decision 057): the
 * language is taken only so that every template is called alike.
 */
export function certificateToCourtEmail(data: CertificateEmailData, _language: EmailLanguage): Promise<Email> {
  const { school } = data;
  return renderEmail(
    `${data.replaces ? 'Corrected certificate' : 'Traffic school completion'}: ${data.studentName} (${data.certificateNumber})`,
    <EmailLayout school={school} language="en">
      <Paragraph>{`Dear Clerk of the ${data.courtName},`}</Paragraph>
      {correctedLine(data.replaces, 'en')}
      <Paragraph>
        {`${data.studentName} completed the court-assigned traffic school course at ${school.name} on ${data.completionDate}.`}
      </Paragraph>
      {data.caseNumber ? <Paragraph>{`Case or citation number: ${data.caseNumber}`}</Paragraph> : null}
      <Paragraph>
        {`The certificate of completion (${data.certificateNumber}) is attached. Its authenticity can be checked at `}
        <AddressLink href={`${school.publicUrl}/verify/${data.certificateNumber}`} />.
      </Paragraph>
    </EmailLayout>,
  );
}

/** To the student once their court acknowledges the certificate (the court's view), in the student's language. */
export function courtReceiptEmail(
  data: { school: SchoolDetails; firstName: string; certificateNumber: string },
  language: EmailLanguage,
): Promise<Email> {
  const { school } = data;
  const whereItIs = <AddressLink href={`${school.publicUrl}/certificate`} />;
  if (language === 'es') {
    return renderEmail(
      `Su tribunal recibió su certificado (${data.certificateNumber})`,
      <EmailLayout school={school} language="es">
        <Paragraph>{`Hola, ${data.firstName}:`}</Paragraph>
        <Paragraph>
          {`Su tribunal confirmó que recibió su certificado de finalización ${data.certificateNumber}. No necesita hacer nada más con la escuela.`}
        </Paragraph>
        <Paragraph>
          {'Puede ver dónde está su certificado en cualquier momento en '}
          {whereItIs}.
        </Paragraph>
      </EmailLayout>,
    );
  }
  return renderEmail(
    `Your court received your certificate (${data.certificateNumber})`,
    <EmailLayout school={school} language="en">
      <Paragraph>{`Hello ${data.firstName},`}</Paragraph>
      <Paragraph>
        {`Your court has confirmed that it received your certificate of completion ${data.certificateNumber}. There is nothing more you need to do for the school.`}
      </Paragraph>
      <Paragraph>
        {'You can see where your certificate is at any time at '}
        {whereItIs}.
      </Paragraph>
    </EmailLayout>,
  );
}
