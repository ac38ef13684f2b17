import { describe, expect, it } from 'vitest';
import type { RulesProfile } from '@ts/contract';
import { courtCopyAddress } from './court-copy.ts';

const CLERK = 'clerk@court.example';
const rules = (certificate: Partial<RulesProfile['certificate']>): RulesProfile['certificate'] => ({
  routing: 'student_and_court',
  retentionYears: 3,
  ...certificate,
});

describe("the court's copy of a certificate", () => {
  it('goes to the clerk at issue when the profile routes the certificate to the student and the court', () => {
    expect(courtCopyAddress(rules({ routing: 'student_and_court' }), 'issued', CLERK)).toBe(CLERK);
    expect(courtCopyAddress(rules({ routing: 'student_only' }), 'issued', CLERK)).toBeNull();
    expect(courtCopyAddress(rules({ routing: 'held_for_state_report' }), 'issued', CLERK)).toBeNull();
  });

  it("goes to the clerk once the state's filing is recorded only for a held certificate whose profile asks for it", () => {
    const held = rules({ routing: 'held_for_state_report', courtCopyAfterFiling: true });
    expect(courtCopyAddress(held, 'filed_with_state', CLERK)).toBe(CLERK);
    expect(courtCopyAddress({ ...held, courtCopyAfterFiling: false }, 'filed_with_state', CLERK)).toBeNull();
    expect(courtCopyAddress(rules({ routing: 'student_and_court' }), 'filed_with_state', CLERK)).toBeNull();
  });

  it('never goes without a clerk address on file', () => {
    expect(courtCopyAddress(rules({ routing: 'student_and_court' }), 'issued', null)).toBeNull();
    expect(courtCopyAddress(rules({ routing: 'student_and_court' }), 'issued', '')).toBeNull();
    const held = rules({ routing: 'held_for_state_report', courtCopyAfterFiling: true });
    expect(courtCopyAddress(held, 'filed_with_state', null)).toBeNull();
  });
});
