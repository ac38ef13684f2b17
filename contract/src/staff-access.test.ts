import { describe, expect, it } from 'vitest';
import { certificatesApi } from './certificates.ts';
import { ALL_ENDPOINTS } from './index.ts';
import { ANY_STAFF_ROLES, policyRoleOf, staffMayCall } from './staff-access.ts';

describe('staff policy roles (decision 011)', () => {
  it('makes a court-limited admin a court_admin and a court-limited clerk a court_clerk', () => {
    expect(policyRoleOf({ role: 'admin', courtId: 3 })).toBe('court_admin');
    expect(policyRoleOf({ role: 'clerk', courtId: 3 })).toBe('court_clerk');
    expect(policyRoleOf({ role: 'clerk', courtId: null })).toBe('clerk');
    expect(policyRoleOf({ role: 'super_admin', courtId: null })).toBe('super_admin');
  });

  it('gives a court-limited super_admin, which the database refuses, the least role rather than the most', () => {
    expect(policyRoleOf({ role: 'super_admin', courtId: 3 })).toBe('court_clerk');
  });

  it('lets only full admins and super_admins resend a certificate email', () => {
    expect(ANY_STAFF_ROLES.filter((role) => staffMayCall(certificatesApi.resendDelivery, role))).toEqual([
      'super_admin',
      'admin',
    ]);
  });

  it('lets no role make a call whose endpoint names no staff roles, and nobody without a role', () => {
    expect(ANY_STAFF_ROLES.filter((role) => staffMayCall(certificatesApi.verify, role))).toEqual([]);
    expect(staffMayCall(certificatesApi.resendDelivery, null)).toBe(false);
  });

  it('names at least one known role, once each, wherever an endpoint names staff roles', () => {
    for (const endpoint of ALL_ENDPOINTS.filter((candidate) => candidate.staffRoles !== undefined)) {
      const roles = endpoint.staffRoles ?? [];
      expect(roles.length, endpoint.path).toBeGreaterThan(0);
      expect(new Set(roles).size, endpoint.path).toBe(roles.length);
      for (const role of roles) expect(ANY_STAFF_ROLES, endpoint.path).toContain(role);
    }
  });
});
