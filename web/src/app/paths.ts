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
