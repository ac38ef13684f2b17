import type { StaffRole } from './auth.ts';
import type { Endpoint } from './endpoint.ts';

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

/** Every policy role: a call every staff member may make (each within their court scope). */
export const ANY_STAFF_ROLES = [
  'super_admin',
  'admin',
  'clerk',
  'court_admin',
  'court_clerk',
] as const satisfies readonly PolicyRole[];

/**
 * Whether a staff member acting in this role may make a staff-only call: the roles its endpoint
 * names, which its server route lets in. Pages ask this before offering the action.
 */
export function staffMayCall(endpoint: Endpoint, role: PolicyRole | null): boolean {
  return role !== null && (endpoint.staffRoles ?? []).includes(role);
}
