import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { ANY_STAFF_ROLES } from './staff-access.ts';
import { Id, IdParam, nameText } from './primitives.ts';

/** Change password (spec 2 /admin/change-password, 5, 7, 8). */

/**
 * Staff passwords: at least 12 characters; the server also refuses one a strength estimator
 * guesses soon or that holds the username or the email's name (decision 047, WEAK_PASSWORD).
 */
export const STAFF_PASSWORD_MIN_LENGTH = 12;
export const StaffPasswordSchema = z.string().min(STAFF_PASSWORD_MIN_LENGTH).max(200);

const changeStaffPassword = defineEndpoint({
  method: 'POST',
  path: '/api/admin/change-password',
  // Every staff member changes their own password, and only their own (decision 011).
  staffRoles: ANY_STAFF_ROLES,
  body: z.object({
    userId: Id,
    currentPw: z.string().min(1).max(200),
    newPw: StaffPasswordSchema,
  }),
  errors: ['NOT_FOUND', 'WRONG_PASSWORD', 'WEAK_PASSWORD'],
  response: z.object({ status: z.literal('SUCCESS') }),
});

/** Staff accounts (/admin/users, super_admin only) and the one-time set-password link. */

export const StaffAccountSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['super_admin', 'admin', 'clerk']),
  court_id: z.number().int().nullable(),
  court_name: z.string().nullable(),
  created_at: z.string(),
  disabled_at: z.string().nullable(),
  password_set: z.boolean(),
});
export type StaffAccount = z.infer<typeof StaffAccountSchema>;

/** Whether a staff account is the school's (every court) or a court's own (decision 063). */
export const StaffOfSchema = z.enum(['school', 'court']);
export type StaffOf = z.infer<typeof StaffOfSchema>;

export const StaffAccountInputSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email().max(200)),
  name: nameText(200),
  role: z.enum(['super_admin', 'admin', 'clerk']),
  /** For an admin or a clerk (never a super_admin): limits the account to one court. */
  court_id: Id.nullable(),
  /**
   * Whom the account is for, as the form asks first (decision 063): the school's staff see every
   * court, a court's staff only theirs, so 'court' needs a court and 'school' has none. Without
   * it the court alone decides, as before.
   */
  staff_of: StaffOfSchema.optional(),
});

export const SetPasswordLinkSchema = z.object({
  /** Shown once to the super_admin and emailed to the member; only its hash is kept. */
  setPasswordUrl: z.string(),
  expires_at: z.string(),
  /** false when the email could not be sent: the super_admin passes the link on themself. */
  emailed: z.boolean(),
});

/** How long a set-password link works. */
export const SET_PASSWORD_LINK_HOURS = 72;

/** Staff accounts are a super_admin's (decision 011). */
const STAFF_ACCOUNT_ADMINS = ['super_admin'] as const;

const listStaffAccounts = defineEndpoint({
  method: 'GET',
  path: '/api/admin/users',
  staffRoles: STAFF_ACCOUNT_ADMINS,
  response: z.array(StaffAccountSchema),
});

/** A new account's username: what staff sign in with. */
export const StaffUsernameSchema = z
  .string()
  .trim()
  .min(3)
  .max(60)
  .regex(/^[A-Za-z0-9._-]+$/);

const createStaffAccount = defineEndpoint({
  method: 'POST',
  path: '/api/admin/users',
  staffRoles: STAFF_ACCOUNT_ADMINS,
  body: StaffAccountInputSchema.extend({ username: StaffUsernameSchema }),
  errors: ['STAFF_EXISTS', 'NO_SUCH_COURT', 'SUPER_ADMIN_ALL_COURTS', 'COURT_REQUIRED', 'SCHOOL_STAFF_ALL_COURTS'],
  response: z.object({ user: StaffAccountSchema, link: SetPasswordLinkSchema }),
  status: 201,
});

const updateStaffAccount = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/users/:id',
  staffRoles: STAFF_ACCOUNT_ADMINS,
  params: z.object({ id: IdParam }),
  body: StaffAccountInputSchema.extend({ disabled: z.boolean() }),
  errors: [
    'NOT_FOUND',
    'STAFF_EXISTS',
    'NO_SUCH_COURT',
    'SUPER_ADMIN_ALL_COURTS',
    'COURT_REQUIRED',
    'SCHOOL_STAFF_ALL_COURTS',
    'OWN_ACCOUNT',
    'LAST_SUPER_ADMIN',
  ],
  response: StaffAccountSchema,
});

const issueSetPasswordLink = defineEndpoint({
  method: 'POST',
  path: '/api/admin/users/:id/set-password-link',
  staffRoles: STAFF_ACCOUNT_ADMINS,
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND', 'ACCOUNT_DISABLED'],
  response: SetPasswordLinkSchema,
});

/** Public: a staff member chooses a password with the one-time token from their link. */
const setStaffPassword = defineEndpoint({
  method: 'POST',
  path: '/api/public/staff/set-password',
  body: z.object({ token: z.string().min(10).max(200), password: StaffPasswordSchema }),
  errors: ['INVALID_LINK', 'WEAK_PASSWORD'],
  response: z.object({ status: z.literal('SUCCESS') }),
});

/** The calls of the server's staff feature. */
export const staffApi = {
  changePassword: changeStaffPassword,
  list: listStaffAccounts,
  create: createStaffAccount,
  update: updateStaffAccount,
  issueSetPasswordLink: issueSetPasswordLink,
  setPassword: setStaffPassword,
} as const;
