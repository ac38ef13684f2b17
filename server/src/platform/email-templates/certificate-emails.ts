import type { RulesProfile } from '@ts/contract';
import { type Email, type EmailLanguage, inLanguage, type SchoolDetails } from './email.ts';

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
const WHERE_THE_COURT_COPY_GOES: Record<CertificateRouting, (court: string) => string> = {
  student_and_court: (court) => `A copy has been sent to the ${court}.`,
  student_only: (court) => `Please give a copy to the ${court} yourself, as your court asks.`,
  held_for_state_report: () =>
    `The school reports your completion to the state; you will see the filing date on your Certificates page.`,
};

/** A correction's reissue says what it replaces, to the student and the court alike (decision 025). */
function correctedLine(data: CertificateEmailData): string {
  return data.replaces ? `Corrected certificate: replaces ${data.replaces}.\n` : '';
}

/** The certificate to the student, its PDF attached (decision 010), with a signed download link. */
export function certificateToStudentEmail(
  data: CertificateEmailData & {
    /** Who the rules profile sends the certificate to: what the email says about the court's copy. */
    routing: CertificateRouting;
    /** The signed download path (download-links.ts), under the school's address. */
    downloadPath: string;
    /** How many days the signed link works. */
    linkDays: number;
  },
  language: EmailLanguage,
): Email {
  const { school } = data;
  return inLanguage(language, {
    en: {
      subject: `Your ${data.replaces ? 'corrected ' : ''}certificate of completion (${data.certificateNumber})`,
      text:
        `Hello ${data.studentName},\n\n` +
        correctedLine(data) +
        `Congratulations on completing your traffic school course. Your certificate of completion is attached. ${WHERE_THE_COURT_COPY_GOES[data.routing](data.courtName)}\n` +
        `You can also download it for the next ${String(data.linkDays)} days at ${school.publicUrl}${data.downloadPath}\n` +
        `or any time from the Certificates page after signing in at ${school.publicUrl}/login.\n\n` +
        `Questions? Write to ${school.supportEmail}.\n\n${school.name}\n`,
    },
  });
}

/** The certificate to the court's clerk, its PDF attached, with where its authenticity is checked. */
export function certificateToCourtEmail(data: CertificateEmailData, language: EmailLanguage): Email {
  const { school } = data;
  return inLanguage(language, {
    en: {
      subject: `${data.replaces ? 'Corrected certificate' : 'Traffic school completion'}: ${data.studentName} (${data.certificateNumber})`,
      text:
        `Dear Clerk of the ${data.courtName},\n\n` +
        correctedLine(data) +
        `${data.studentName} completed the court-assigned traffic school course at ${school.name} on ${data.completionDate}.\n` +
        (data.caseNumber ? `Case or citation number: ${data.caseNumber}\n` : '') +
        `The certificate of completion (${data.certificateNumber}) is attached. Its authenticity can be checked at ${school.publicUrl}/verify/${data.certificateNumber}.\n\n` +
        `${school.name}\n${school.supportEmail}\n`,
    },
  });
}

/** To the student once their court acknowledges the certificate (the court's view). */
export function courtReceiptEmail(
  data: { school: SchoolDetails; firstName: string; certificateNumber: string },
  language: EmailLanguage,
): Email {
  const { school } = data;
  return inLanguage(language, {
    en: {
      subject: `Your court received your certificate (${data.certificateNumber})`,
      text:
        `Hello ${data.firstName},\n\n` +
        `Your court has confirmed that it received your certificate of completion ${data.certificateNumber}. There is nothing more you need to do for the school.\n\n` +
        `You can see where your certificate is at any time at ${school.publicUrl}/certificate.\n\n${school.name}\n`,
    },
  });
}
