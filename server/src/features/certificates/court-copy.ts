import type { RulesProfile } from '@ts/contract';

/** When the court's copy of a certificate may be sent: at its issue, or once the state's filing is recorded. */
export type CourtCopyMoment = 'issued' | 'filed_with_state';

/**
 * The one rule for the court clerk's copy of a certificate (decisions 012 and 024): the address it
 * goes to at `moment`, or null for none. At issue, only a profile that routes the certificate to
 * the student and the court sends it; a certificate held for the state's report goes to the court
 * once its filing is recorded, where the profile asks for that (courtCopyAfterFiling). Never
 * without a clerk's address on file.
 */
export function courtCopyAddress(
  rules: RulesProfile['certificate'],
  moment: CourtCopyMoment,
  courtEmail: string | null,
): string | null {
  if (!courtEmail) return null;
  const due =
    moment === 'issued'
      ? rules.routing === 'student_and_court'
      : rules.routing === 'held_for_state_report' && rules.courtCopyAfterFiling === true;
  return due ? courtEmail : null;
}
