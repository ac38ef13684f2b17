import { describe, expect, it } from 'vitest';
import type { Certificate } from '@ts/contract';
import { splitCertificates } from './current-certificate.ts';

const certificate = (overrides: Partial<Certificate> & Pick<Certificate, 'id' | 'number'>): Certificate => ({
  generated_at: '2026-11-20T18:00:00.000Z',
  completion_date: '2026-11-20',
  file_url: `/api/certificates/${overrides.number}/pdf`,
  url: `/api/certificates/${overrides.number}/pdf`,
  deliveries: [],
  routing: 'student_and_court',
  state_filed_at: null,
  replaces: null,
  superseded_at: null,
  timeline: [],
  ...overrides,
});

describe('which certificate the certificates page shows first', () => {
  it('shows the one in force first and lists the one it replaced under Past Certificates', () => {
    const replaced = certificate({
      id: 1,
      number: 'TS-2026-000001',
      generated_at: '2026-11-20T18:00:00.000Z',
      superseded_at: '2026-11-22T18:00:00.000Z',
    });
    const corrected = certificate({
      id: 2,
      number: 'TS-2026-000002',
      generated_at: '2026-11-22T18:00:00.000Z',
      replaces: 'TS-2026-000001',
    });
    expect(splitCertificates([replaced, corrected])).toEqual({ current: corrected, past: [replaced] });
  });

  it('has no current certificate when every one was replaced, and lists them newest first', () => {
    const older = certificate({ id: 1, number: 'TS-2026-000001', superseded_at: '2026-11-21T00:00:00.000Z' });
    const newer = certificate({
      id: 2,
      number: 'TS-2026-000002',
      generated_at: '2026-11-21T00:00:00.000Z',
      superseded_at: '2026-11-22T00:00:00.000Z',
    });
    expect(splitCertificates([older, newer])).toEqual({ current: undefined, past: [newer, older] });
  });

  it('has neither for a student with no certificate', () => {
    expect(splitCertificates([])).toEqual({ current: undefined, past: [] });
  });
});
