import { z } from 'zod';
import { readEditions } from '../../db/content-files.ts';
import { isoToUs } from '../../platform/clock.ts';
import type { CertificateSnapshot } from '../../platform/pdf/certificate-pdf.ts';
import type { StudentProfile } from '../rules/rules.service.ts';

export const COURSE_NAME = 'Court-Assigned Defensive Driving Course (four chapters and a final exam)';
/** How a certificate under the default profile (version 1, the spec's course) names its rules. */
export const DEFAULT_RULES_PROFILE = 'Standard course (version 1)';

/**
 * The course rules line of the snapshot, as a court reads it (decision 024): the profile's public
 * name and version, never an internal id. A certificate already issued keeps the words it has.
 */
export function describeRulesProfile(profile: StudentProfile): string {
  return `${profile.rules.name.en} (version ${String(profile.version)})`;
}

let editionNames: ReadonlyMap<string, string> | undefined;

/**
 * The course's name on a certificate: a state edition's public name for its students (decision
 * 051, "Texas Driving Safety Course"), the shared course's otherwise. Read once from content/.
 */
export function courseNameFor(profile: StudentProfile): string {
  editionNames ??= new Map(readEditions().map((edition) => [edition.id, edition.name.en]));
  const { edition } = profile.rules;
  return (edition === null ? undefined : editionNames.get(edition)) ?? COURSE_NAME;
}

/**
 * What a certificate certifies, frozen when it is issued (decision 010) and never recomputed:
 * written once by issueCertificate, read by the PDF (certificate-pdf.service.ts) and the emails
 * (deliveries.service.ts). Its type is the PDF's own (platform/pdf), so writer and readers agree;
 * a stored snapshot is parsed with it, never cast.
 */
export const CertificateSnapshotSchema = z.object({
  number: z.string(),
  studentName: z.string(),
  dlNumber: z.string(),
  dateOfBirth: z.string(),
  courtName: z.string(),
  courtState: z.string().optional(),
  courseName: z.string(),
  completionDate: z.string(),
  rulesProfile: z.string(),
  caseNumber: z.string().optional(),
  replaces: z.string().optional(),
  issuedAt: z.string(),
}) satisfies z.ZodType<CertificateSnapshot>;

/** A stored snapshot (the certificates.snapshot column) as the type it was written as. */
export function readCertificateSnapshot(stored: unknown): CertificateSnapshot {
  return CertificateSnapshotSchema.parse(stored);
}

/** Who and what a certificate certifies, as they are at its issue. */
export interface CertificateSubject {
  firstName: string;
  lastName: string;
  dlNumber: string;
  /** YYYY-MM-DD, as stored. */
  dob: string;
  caseNumber: string | null;
  courtName: string;
  /** The court's county's state: picks the school's approval number the certificate prints (decision 062). */
  courtState: string;
}

/**
 * The snapshot of a certificate being issued: the name as "first last", the date of birth as
 * MM/DD/YYYY, the course and rules as the student's pinned profile names them, a case number only
 * when there is one, and for a correction's reissue the number it replaces (decision 025).
 */
export function buildCertificateSnapshot(input: {
  number: string;
  subject: CertificateSubject;
  profile: StudentProfile;
  /** YYYY-MM-DD. */
  completionDate: string;
  issuedAt: Date;
  replaces?: string | undefined;
}): CertificateSnapshot {
  const { subject } = input;
  return {
    number: input.number,
    studentName: `${subject.firstName} ${subject.lastName}`,
    dlNumber: subject.dlNumber,
    dateOfBirth: isoToUs(subject.dob),
    courtName: subject.courtName,
    courtState: subject.courtState,
    courseName: courseNameFor(input.profile),
    completionDate: input.completionDate,
    rulesProfile: describeRulesProfile(input.profile),
    ...(subject.caseNumber ? { caseNumber: subject.caseNumber } : {}),
    ...(input.replaces ? { replaces: input.replaces } : {}),
    issuedAt: input.issuedAt.toISOString(),
  };
}
