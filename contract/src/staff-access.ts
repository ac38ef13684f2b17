import type { StaffRole } from './auth.ts';

/**
 * The role a staff member acts in for access decisions (decision 011): an admin or a clerk
 * limited to one court is a role of its own, so a route lets them in only when it names them,
 * and every route that does applies their court scope. A super_admin is never court-limited.
 */
export type PolicyRole = StaffRole | 'court_admin' | 'court_clerk';

export function policyRoleOf(member: { role: StaffRole; courtId: number | null }): PolicyRole {
  if (member.courtId === null) return member.role;
  // The database refuses a court-limited super_admin; were one to exist, it would get the least.
  return member.role === 'admin' ? 'court_admin' : 'court_clerk';
}

/**
 * Who may send a certificate email again. The server's route and the admin student page both
 * read this one list, so the page never offers a Resend the server would refuse.
 */
export const RESEND_DELIVERY_ROLES = ['super_admin', 'admin'] as const satisfies readonly PolicyRole[];

export function mayResendDelivery(role: PolicyRole): boolean {
  return (RESEND_DELIVERY_ROLES as readonly PolicyRole[]).includes(role);
}
