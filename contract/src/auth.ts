import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { driverLicenseNumber, text } from './primitives.ts';

export const StaffRoleSchema = z.enum(['super_admin', 'admin', 'clerk']);
export type StaffRole = z.infer<typeof StaffRoleSchema>;
export const UserTypeSchema = z.enum(['super_admin', 'admin', 'clerk', 'student']);
export type UserType = z.infer<typeof UserTypeSchema>;

/** The language a student's emails are written in (decision 056), the app's two. */
export const StudentLanguageSchema = z.enum(['en', 'es']);
export type StudentLanguage = z.infer<typeof StudentLanguageSchema>;

/** The signed-in user as the browser keeps it (spec 3, "Stored user session"): a display copy only. */
export const SessionUserSchema = z.object({
  id: z.number().int(),
  type: UserTypeSchema,
  name: z.string(),
  court_id: z.number().int().nullable(),
  payment_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** A student's stored language (decision 056), shown by /api/me; staff have none. */
  language: StudentLanguageSchema.optional(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const LoginResultSchema = z.object({
  status: z.literal('SUCCESS'),
  user: SessionUserSchema,
});
export type LoginResult = z.infer<typeof LoginResultSchema>;

export const StudentLoginSchema = z.object({
  last_name: text().trim().min(1).max(100),
  dl_number: driverLicenseNumber(),
});
export type StudentLogin = z.infer<typeof StudentLoginSchema>;

export const AdminLoginSchema = z.object({
  /** A username or an email address. */
  username: z.string().trim().min(1).max(200),
  password: z.string().min(1).max(200),
});
export type AdminLogin = z.infer<typeof AdminLoginSchema>;

const loginStudent = defineEndpoint({
  method: 'POST',
  path: '/api/login/student',
  body: StudentLoginSchema,
  // COURSE_REFUNDED: the enrolment was closed by a full refund (decision 058).
  errors: ['INVALID_LOGIN', 'COURSE_REFUNDED'],
  response: LoginResultSchema,
});

const loginAdmin = defineEndpoint({
  method: 'POST',
  path: '/api/login/admin',
  body: AdminLoginSchema,
  errors: ['INVALID_LOGIN'],
  response: LoginResultSchema,
});

const logout = defineEndpoint({
  method: 'POST',
  path: '/api/logout',
  response: z.null(),
  status: 204,
});

const getCurrentUser = defineEndpoint({
  method: 'GET',
  path: '/api/me',
  errors: ['UNAUTHENTICATED'],
  response: z.object({ user: SessionUserSchema }),
});

/** A signed-in student's switch of the app's language, stored for their emails (decision 056). */
const setMyLanguage = defineEndpoint({
  method: 'PUT',
  path: '/api/me/language',
  body: z.object({ language: StudentLanguageSchema }),
  response: z.null(),
  status: 204,
});

/** The calls of the server's auth feature. */
export const authApi = {
  loginStudent: loginStudent,
  loginAdmin: loginAdmin,
  logout: logout,
  me: getCurrentUser,
  setMyLanguage: setMyLanguage,
} as const;
