import { policyRoleOf, type PolicyRole, type SessionUser } from '@ts/contract';

/**
 * The role the signed-in staff member acts in (decision 011), from the stored user, or null for a
 * student or nobody. Pages decide what to offer with the contract's rules on this role, the same
 * rules the server's routes use.
 */
export function staffPolicyRole(user: SessionUser | null): PolicyRole | null {
  if (!user || user.type === 'student') return null;
  return policyRoleOf({ role: user.type, courtId: user.court_id });
}
