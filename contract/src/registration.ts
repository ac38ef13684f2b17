import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import {
  driverLicenseNumber,
  HIDDEN_CHARACTER_PATTERN,
  IdParam,
  isCalendarDate,
  nameText,
  text,
} from './primitives.ts';
import { ManualPaymentSchema } from './payments.ts';
import { US_STATE_CODES } from './states.ts';

/** The fields spec section 5 requires, in the order the form shows them. */
export const REGISTRATION_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'dl_number',
  'dob',
  'address',
  'city',
  'state',
  'zip',
  'court',
] as const;

/** The dob mask 99/99/9999 (spec 5, 9): exactly 10 characters. */
export const DOB_PATTERN = /^\d{2}\/\d{2}\/\d{4}$/;

/**
 * A date of birth is MM/DD/YYYY, a real calendar date, and gives an age a driver can have.
 * Returns the ISO date (YYYY-MM-DD) or null.
 */
export function parseDateOfBirth(value: string, today: Date = new Date()): string | null {
  if (!DOB_PATTERN.test(value)) return null;
  const [mm, dd, yyyy] = value.split('/').map(Number) as [number, number, number];
  if (!isCalendarDate(yyyy, mm, dd)) return null;
  const date = new Date(Date.UTC(yyyy, mm - 1, dd));
  // Age in whole years: one less until this year's birthday has come.
  const birthdayPassed = today.getUTCMonth() > mm - 1 || (today.getUTCMonth() === mm - 1 && today.getUTCDate() >= dd);
  const age = today.getUTCFullYear() - yyyy - (birthdayPassed ? 0 : 1);
  if (date > today || age < 14 || age > 120) return null;
  return `${String(yyyy)}-${String(mm).padStart(2, '0')}-${String(dd).padStart(2, '0')}`;
}

/**
 * A court due date (decision 012): MM/DD/YYYY, a real calendar date, not before `today` (the school's
 * calendar day, YYYY-MM-DD). Returns YYYY-MM-DD, or null. The server stores what it returns; the
 * form asks the same before anything is sent.
 */
export function parseCourtDueDate(us: string, today: string): string | null {
  if (!DOB_PATTERN.test(us)) return null;
  const [mm, dd, yyyy] = us.split('/').map(Number) as [number, number, number];
  if (!isCalendarDate(yyyy, mm, dd)) return null;
  const iso = `${us.slice(6, 10)}-${us.slice(0, 2)}-${us.slice(3, 5)}`;
  return iso < today ? null : iso;
}

const FILL_ALL_FIELDS = 'Please fill out all fields.';
/** What makes one address several to a mail library: list separators, control and invisible characters. */
const ONE_RECIPIENT_BREAKERS = new RegExp(`[,;]|${HIDDEN_CHARACTER_PATTERN.source}`, 'u');
const requiredText = (max: number) => text().trim().min(1, FILL_ALL_FIELDS).max(max);

export const RegistrationSchema = z.object({
  first_name: nameText(100, FILL_ALL_FIELDS),
  last_name: nameText(100, FILL_ALL_FIELDS),
  // Spec 5: "Email format is not checked." It is kept as typed, trimmed and lower-cased; but it
  // is one recipient: a list (a comma or semicolon) or a line break would send the school's
  // emails, the certificate among them, to addresses of the registrant's choosing.
  email: requiredText(254)
    .refine((email) => !ONE_RECIPIENT_BREAKERS.test(email), 'Enter one email address.')
    .transform((email) => email.toLowerCase()),
  dl_number: driverLicenseNumber(FILL_ALL_FIELDS),
  address: nameText(200, FILL_ALL_FIELDS),
  city: nameText(100, FILL_ALL_FIELDS),
  state: z.enum(US_STATE_CODES),
  zip: requiredText(10).regex(/^\d{5}(-\d{4})?$/, 'Zip must be 5 digits (or ZIP+4).'),
  court: IdParam,
  dob: z
    .string()
    .regex(DOB_PATTERN, 'Date of birth must be MM/DD/YYYY.')
    .refine((dob) => parseDateOfBirth(dob) !== null, 'Date of birth is not a valid date.'),
  /** Manual enrolment by a signed-in admin (spec 7); ignored for anyone else. */
  backdoor: z.boolean().optional(),
  /** With `backdoor`: the payment taken by hand (decision 026); ignored for anyone else. */
  manual_payment: ManualPaymentSchema.optional(),
  /** Optional (decision 012): the date the court expects the certificate by, MM/DD/YYYY. */
  court_due_date: z
    .string()
    .trim()
    .regex(DOB_PATTERN, 'The court due date must be MM/DD/YYYY.')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * Optional (decision 024): the case or citation number on the student's court papers or ticket,
   * printed on the certificate and sent with it to the court and in a state filing.
   */
  case_number: z
    .string()
    .trim()
    .max(40, 'The case or citation number is too long.')
    .regex(
      /^[\p{L}\p{N}][\p{L}\p{N} ./#-]*$/u,
      'The case or citation number may use letters, digits, spaces and - / . # only.',
    )
    .optional()
    .or(z.literal('').transform(() => undefined)),
});
export type Registration = z.input<typeof RegistrationSchema>;

export const RegistrationResultSchema = z.object({ studentId: z.number().int() });

const registerStudent = defineEndpoint({
  method: 'POST',
  path: '/api/register/student',
  body: RegistrationSchema,
  errors: ['DUPLICATE_ACCOUNT', 'NO_SUCH_COURT', 'FORBIDDEN'],
  response: RegistrationResultSchema,
  status: 201,
});

const resetCourse = defineEndpoint({
  method: 'PUT',
  path: '/api/students/resetcourse/:studentId',
  params: z.object({ studentId: IdParam }),
  // Spec 7 sends no payload; the reset token (decision 004) comes in the body when there is one.
  body: z.object({ resetToken: z.string().min(1).max(200).optional() }).nullish(),
  // Decision 026: DUPLICATE_ACCOUNT when another enrolment holds the new registration's email or licence.
  errors: ['NOT_FOUND', 'FORBIDDEN', 'DUPLICATE_ACCOUNT'],
  response: z.object({ status: z.literal('RESET'), archivedStudentId: z.number().int() }),
});

/** Spec 4 retake: archives the enrolment (never deletes it); 204. */
const retakeCourse = defineEndpoint({
  method: 'DELETE',
  path: '/api/students/:id',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND', 'COURSE_NOT_COMPLETE'],
  response: z.null(),
  status: 204,
});

/** The calls of the server's registration feature. */
export const registrationApi = {
  register: registerStudent,
  resetCourse: resetCourse,
  retake: retakeCourse,
} as const;
