import type { SessionUser } from '@ts/contract';

/** Where each kind of user lands (spec 4). */
export const paths = {
  studentLogin: '/login',
  adminLogin: '/admin-login',
  register: '/register',
  pay: '/pay',
  thankYou: '/thank-you',
  home: '/',
  chapter: (chapterId: number) => `/content/${String(chapterId)}`,
  finalExam: '/final',
  certificate: '/certificate',
  admin: '/admin',
  adminStudents: '/admin/students',
} as const;

/**
 * Spec 4: where a signed-in student starts: unpaid, the payment page with their id; the course
 * complete, their certificate; otherwise home. One answer for the sign-in page and for the guard
 * that sends a signed-in visitor away from it, which runs first.
 */
export function studentStart(user: SessionUser): { to: string; state?: { studentId: number; courtId: number | null } } {
  if (user.payment_at === null) return { to: paths.pay, state: { studentId: user.id, courtId: user.court_id } };
  if (user.completed_at !== null) return { to: paths.certificate };
  return { to: paths.home };
}
