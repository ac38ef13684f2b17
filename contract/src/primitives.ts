import { z } from './zod.ts';

/**
 * The largest id (and any other whole number a request carries): PostgreSQL's `integer`. A
 * larger value would reach the database and fail there (decision 016), so the contract stops it.
 */
export const MAX_ID = 2_147_483_647;

/** An id in a request body: a whole number from 1 to MAX_ID. */
export const Id = z.number().int().min(1).max(MAX_ID);

/** How a path or a query string writes an id: decimal digits, without a sign, a space or a leading zero. */
const DECIMAL_ID = /^[1-9][0-9]{0,9}$/;

const NOT_AN_ID = `must be a whole number from 1 to ${String(MAX_ID)}`;

/**
 * An id in a path or query string ("42"), or a number where a body may carry either ("court").
 * Only plain decimal digits are read as a number; any other text ("0x1f", "1e3", " 12", "+12",
 * "012", "12.0") is refused with the same 400 as "0", "-1" or "2147483648".
 */
export const IdParam = z.preprocess(
  (value) => (typeof value === 'string' && DECIMAL_ID.test(value) ? Number(value) : value),
  z.number(NOT_AN_ID).int(NOT_AN_ID).min(1, NOT_AN_ID).max(MAX_ID, NOT_AN_ID),
);

/** A page number in a query string. */
export const PageParam = z.coerce.number().int().min(1).max(100_000);

/** A NUL byte: PostgreSQL refuses it in text (22021), so no request text may carry one. */
export const NUL = '\u0000';

/**
 * Characters a person's name or address never needs and that change how it displays: C0 and C1
 * controls (tab and newline too), format characters (zero-width ones, the bidi embeddings and
 * overrides U+202A-202E and isolates U+2066-2069, which make "Smith" show reversed to staff), and
 * the line and paragraph separators.
 */
export const HIDDEN_CHARACTER_PATTERN = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Any text a request carries: refuses NUL. */
export const text = () => z.string().refine((value) => !value.includes(NUL), 'must not contain a NUL character');

/**
 * A name, city or street address as a person typed it: trimmed, and without control or format
 * characters (the message names what is wrong, so a pasted name can be fixed).
 */
export const nameText = (max: number, requiredMessage?: string) =>
  z
    .string()
    .trim()
    .min(1, requiredMessage)
    .max(max)
    .refine((value) => !HIDDEN_CHARACTER_PATTERN.test(value), 'must not contain control or invisible characters');

/**
 * A driver's license number as the states print it: letters A-Z and digits, which people type
 * with spaces or hyphens in places ("D123-4567"). Normalised to upper case without those, the
 * one form stored, searched and compared. Anything else (an invisible or control character, a
 * no-break space, an accented or look-alike letter) is refused, not dropped: "Z123\u200b4567"
 * would otherwise be a second, identical-looking student beside "Z1234567".
 */
export const DRIVER_LICENSE_PATTERN = /^[A-Za-z0-9 -]+$/;
export const DRIVER_LICENSE_MESSAGE = "A driver's license number uses letters A-Z and digits only.";

export function normaliseDriverLicenseNumber(typed: string): string {
  return typed.toUpperCase().replace(/[ -]/g, '');
}

export const driverLicenseNumber = (requiredMessage?: string) =>
  text()
    .trim()
    .min(1, requiredMessage)
    .max(40)
    .refine((value) => DRIVER_LICENSE_PATTERN.test(value), DRIVER_LICENSE_MESSAGE)
    .transform(normaliseDriverLicenseNumber)
    .refine((value) => value.length > 0, requiredMessage ?? DRIVER_LICENSE_MESSAGE);

/** Whether a year, a month (1-12) and a day name a day the calendar has (not February 30, not month 13). */
export function isCalendarDate(yyyy: number, mm: number, dd: number): boolean {
  const date = new Date(Date.UTC(yyyy, mm - 1, dd));
  return date.getUTCFullYear() === yyyy && date.getUTCMonth() === mm - 1 && date.getUTCDate() === dd;
}
