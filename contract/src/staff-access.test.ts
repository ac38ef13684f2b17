import { describe, expect, it } from 'vitest';
import { mayResendDelivery, policyRoleOf } from './staff-access.ts';

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
    const roles = ['super_admin', 'admin', 'clerk', 'court_admin', 'court_clerk'] as const;
    expect(roles.filter(mayResendDelivery)).toEqual(['super_admin', 'admin']);
  });
});
