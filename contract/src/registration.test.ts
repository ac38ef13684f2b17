import { describe, expect, it } from 'vitest';
import { parseDateOfBirth, REGISTRATION_FIELDS, type Registration, RegistrationSchema } from './registration.ts';
import { US_STATE_CODES } from './states.ts';

const TODAY = new Date('2026-11-22T15:00:00Z');

function completeForm(): Registration {
  return {
    first_name: 'Maria',
    last_name: 'Lopez',
    email: 'maria.lopez@example.com',
    dl_number: 'D1234567',
    dob: '04/15/1990',
    address: '1 Main Street',
    city: 'Los Angeles',
    state: 'CA',
    zip: '90012',
    court: 1,
  };
}

describe('parseDateOfBirth', () => {
  it('turns a valid MM/DD/YYYY date into an ISO date', () => {
    expect(parseDateOfBirth('04/15/1990', TODAY)).toBe('1990-04-15');
    expect(parseDateOfBirth('12/01/1975', TODAY)).toBe('1975-12-01');
  });

  it('accepts February 29 in a leap year', () => {
    expect(parseDateOfBirth('02/29/2000', TODAY)).toBe('2000-02-29');
    expect(parseDateOfBirth('02/29/1988', TODAY)).toBe('1988-02-29');
  });

  it('refuses February 29 in a year that is not a leap year', () => {
    expect(parseDateOfBirth('02/29/1990', TODAY)).toBeNull();
    expect(parseDateOfBirth('02/29/2001', TODAY)).toBeNull();
  });

  it.each(['13/01/2000', '00/10/2000', '04/31/1990', '04/00/1990', '02/30/1990'])(
    'refuses %s, which is not a calendar date',
    (dob) => {
      expect(parseDateOfBirth(dob, TODAY)).toBeNull();
    },
  );

  it('refuses text that is not MM/DD/YYYY', () => {
    expect(parseDateOfBirth('1990-04-15', TODAY)).toBeNull();
    expect(parseDateOfBirth('4/15/1990', TODAY)).toBeNull();
    expect(parseDateOfBirth('', TODAY)).toBeNull();
  });

  it('refuses a date in the future', () => {
    expect(parseDateOfBirth('01/01/2027', TODAY)).toBeNull();
    expect(parseDateOfBirth('11/23/2026', TODAY)).toBeNull();
  });

  it('refuses a child younger than 14', () => {
    expect(parseDateOfBirth('01/01/2020', TODAY)).toBeNull();
    expect(parseDateOfBirth('06/01/2013', TODAY)).toBeNull();
  });

  it('accepts a driver who turned 14 earlier this year', () => {
    expect(parseDateOfBirth('01/15/2012', TODAY)).toBe('2012-01-15');
  });

  it('refuses a 13-year-old whose 14th birthday is still a month away', () => {
    // Born 12/22/2012, so 13 years old on 11/22/2026: the age is counted in whole years, not calendar years.
    expect(parseDateOfBirth('12/22/2012', TODAY)).toBeNull();
  });

  it('refuses an age over 120', () => {
    expect(parseDateOfBirth('01/01/1900', TODAY)).toBeNull();
    expect(parseDateOfBirth('01/01/1905', TODAY)).toBeNull();
  });

  it('accepts a driver of 100', () => {
    expect(parseDateOfBirth('01/01/1926', TODAY)).toBe('1926-01-01');
  });
});

describe('RegistrationSchema', () => {
  it('accepts a complete registration', () => {
    expect(RegistrationSchema.safeParse(completeForm()).success).toBe(true);
  });

  it('offers the 50 states and DC, and accepts every one of them', () => {
    expect(US_STATE_CODES).toHaveLength(51);
    expect(new Set(US_STATE_CODES).size).toBe(51);
    expect(US_STATE_CODES).toContain('DC');
    for (const state of US_STATE_CODES) {
      expect(RegistrationSchema.safeParse({ ...completeForm(), state }).success, state).toBe(true);
    }
  });

  it.each(['XX', 'ca', 'PR', ''])('refuses the state %j', (state) => {
    expect(RegistrationSchema.safeParse({ ...completeForm(), state }).success).toBe(false);
  });

  it.each(['90012', '90012-1234'])('accepts the zip %s', (zip) => {
    expect(RegistrationSchema.safeParse({ ...completeForm(), zip }).success).toBe(true);
  });

  it.each(['9001', '900123', '90012-123', 'ABCDE', '90012 1234'])('refuses the zip %s', (zip) => {
    expect(RegistrationSchema.safeParse({ ...completeForm(), zip }).success).toBe(false);
  });

  it('keeps the email as typed but trimmed and lower-cased, without checking its format (spec 5)', () => {
    const parsed = RegistrationSchema.parse({ ...completeForm(), email: '  Maria.LOPEZ@Example.COM ' });
    expect(parsed.email).toBe('maria.lopez@example.com');
    expect(RegistrationSchema.parse({ ...completeForm(), email: 'not an address' }).email).toBe('not an address');
  });

  it.each(['a@b.example,c@d.example', 'a@b.example; c@d.example', 'a@b.example\nBcc: c@d.example'])(
    'refuses an email that is a list or carries a line break (%j): one enrolment, one recipient',
    (email) => {
      const result = RegistrationSchema.safeParse({ ...completeForm(), email });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Enter one email address.');
    },
  );

  it('stores the licence number upper-cased without spaces or dashes', () => {
    expect(RegistrationSchema.parse({ ...completeForm(), dl_number: ' d12-34 567 ' }).dl_number).toBe('D1234567');
  });

  it('takes the court as a number or a numeric string', () => {
    expect(RegistrationSchema.parse({ ...completeForm(), court: '7' }).court).toBe(7);
  });

  it.each([0, -3, 'abc', 1.5])('refuses the court %j', (court) => {
    expect(RegistrationSchema.safeParse({ ...completeForm(), court }).success).toBe(false);
  });

  it.each(['04/15/199', '02/30/1990', '13/01/2000', '1990-04-15'])('refuses the date of birth %s', (dob) => {
    expect(RegistrationSchema.safeParse({ ...completeForm(), dob }).success).toBe(false);
  });

  it.each(REGISTRATION_FIELDS)('refuses a registration without %s', (field) => {
    const form: Partial<Record<string, unknown>> = { ...completeForm() };
    delete form[field];
    expect(RegistrationSchema.safeParse(form).success).toBe(false);
  });

  it('refuses a blank name with the spec message', () => {
    const result = RegistrationSchema.safeParse({ ...completeForm(), first_name: '  ' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Please fill out all fields.');
  });

  it('passes the manual-enrolment flag through and refuses one that is not a boolean', () => {
    expect(RegistrationSchema.parse({ ...completeForm(), backdoor: true }).backdoor).toBe(true);
    expect(RegistrationSchema.safeParse({ ...completeForm(), backdoor: 'yes' }).success).toBe(false);
  });
});
