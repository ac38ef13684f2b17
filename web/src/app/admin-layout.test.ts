// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@ts/contract';
import { adminNavItems } from './admin-layout.tsx';

const user = (type: SessionUser['type'], court_id: number | null): SessionUser => ({
  id: 1,
  type,
  name: 'Staff',
  court_id,
  payment_at: null,
  completed_at: null,
});
const paths = (who: SessionUser) => adminNavItems(who, (key) => key).map((item) => item.to);

describe('admin navigation (spec 6, decision 011)', () => {
  it("gives a court's own clerk the court's completions, Students, Change Password and Archive, and no Dashboard", () => {
    expect(paths(user('clerk', 4))).toEqual(['/court', '/admin/students', '/admin/change-password', '/admin/archive']);
  });

  it('keeps a court-limited admin to Students and Change Password, and a full clerk to the read-only items', () => {
    expect(paths(user('admin', 4))).toEqual([
      '/court',
      '/admin/students',
      '/admin/corrections',
      '/admin/change-password',
    ]);
    expect(paths(user('clerk', null))).toEqual([
      '/admin',
      '/admin/students',
      '/admin/change-password',
      '/admin/archive',
    ]);
  });

  it('gives the court completions to admins over every court, not to a school clerk (decision 025)', () => {
    expect(paths(user('admin', null))).toContain('/court');
    expect(paths(user('super_admin', null))).toContain('/court');
    expect(paths(user('clerk', null))).not.toContain('/court');
  });

  it('gives State Filings to admins over every court and super admins only (decision 024)', () => {
    expect(paths(user('admin', null))).toContain('/admin/state-filings');
    expect(paths(user('super_admin', null))).toContain('/admin/state-filings');
    for (const who of [user('admin', 4), user('clerk', null), user('clerk', 4)]) {
      expect(paths(who)).not.toContain('/admin/state-filings');
    }
  });

  it('gives Email Templates to admins over every court and super admins only (decision 057)', () => {
    expect(paths(user('admin', null))).toContain('/admin/emails');
    expect(paths(user('super_admin', null))).toContain('/admin/emails');
    for (const who of [user('admin', 4), user('clerk', null), user('clerk', 4)]) {
      expect(paths(who)).not.toContain('/admin/emails');
    }
  });

  it('gives no item at all to a user the admin area does not know, so the layout removes the stored user (spec 6, decision 026)', () => {
    expect(paths(user('student', null))).toEqual([]);
  });
});
