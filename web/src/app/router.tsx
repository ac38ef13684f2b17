import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, ScrollRestoration } from 'react-router';
import { AdminLoginPage } from '../features/auth/admin-login-page.tsx';
import { StudentLoginPage } from '../features/auth/student-login-page.tsx';
import { AreaGuard, LoginPageGuard } from './guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { PublicLayout } from './public-layout.tsx';

/**
 * A route whose code is fetched the first time it is visited (decision 020): the sign-in pages come
 * with the first script, the course, payment and admin areas each in their own, so a student's
 * phone never downloads the admin area and /login paints from a small script.
 */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await load()) });
}

const course = () => import('./course-routes.tsx');
// The student area's frame and home page on their own: a visitor who is not signed in and opens
// `/` loads only these before the guard sends them to /login, not the whole course.
const studentHome = () => import('./student-home-routes.tsx');
const admin = () => import('./admin-routes.tsx');

/**
 * Above every page: a new page opens at its top and Back returns to where the reader was
 * (decision 021: a quiz's result had opened at the height of its Submit button).
 */
function RootFrame() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

function NothingYet() {
  return null;
}

/** Every route of spec section 2. */
export const router = createBrowserRouter([
  {
    element: <RootFrame />,
    // While the first page's code is fetched (a lazy route opened directly): nothing, as before,
    // said on purpose so the router does not warn in every console.
    HydrateFallback: NothingYet,
    children: [
      {
        element: <PublicLayout />,
        children: [
          {
            element: <LoginPageGuard />,
            children: [
              { path: '/login', element: <StudentLoginPage /> },
              { path: '/admin-login', element: <AdminLoginPage /> },
            ],
          },
          {
            path: '/register',
            lazy: lazyPage(
              () => import('../features/registration/register-page.tsx'),
              (m) => m.RegisterPage,
            ),
          },
          {
            path: '/pay',
            lazy: lazyPage(
              () => import('../features/payments/pay-page.tsx'),
              (m) => m.PayPage,
            ),
          },
          {
            path: '/thank-you',
            lazy: lazyPage(
              () => import('../features/payments/thank-you-page.tsx'),
              (m) => m.ThankYouPage,
            ),
          },
          {
            path: '/verify/:number',
            lazy: lazyPage(
              () => import('../features/certificates/verify-page.tsx'),
              (m) => m.VerifyPage,
            ),
          },
          {
            path: '/set-password',
            lazy: lazyPage(
              () => import('../features/auth/set-password-page.tsx'),
              (m) => m.SetPasswordPage,
            ),
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: <AreaGuard area="student" />,
        children: [
          {
            lazy: lazyPage(studentHome, (m) => m.StudentLayout),
            children: [
              { path: '/', lazy: lazyPage(studentHome, (m) => m.HomePage) },
              { path: '/content/:chapterId', lazy: lazyPage(course, (m) => m.ChapterPage) },
              { path: '/content/:chapterId/:moduleId', lazy: lazyPage(course, (m) => m.ModulePage) },
              { path: '/quiz/:chapterId', lazy: lazyPage(course, (m) => m.QuizPage) },
              // Spec 2 gives both paths for the final exam.
              { path: '/final', lazy: lazyPage(course, (m) => m.FinalExamPage) },
              { path: '/final-exam', lazy: lazyPage(course, (m) => m.FinalExamPage) },
              { path: '/certificate', lazy: lazyPage(course, (m) => m.CertificatesPage) },
              { path: '/score', lazy: lazyPage(course, (m) => m.ScorePage) },
              { path: '/video-test', lazy: lazyPage(course, (m) => m.VideoTestPage) },
              { path: '/personal-questions', lazy: lazyPage(course, (m) => m.PersonalQuestionsPage) },
            ],
          },
        ],
      },
      {
        element: <AreaGuard area="admin" />,
        children: [
          {
            lazy: lazyPage(admin, (m) => m.AdminLayout),
            children: [
              { path: '/admin', lazy: lazyPage(admin, (m) => m.AdminIndexPage) },
              { path: '/admin/students', lazy: lazyPage(admin, (m) => m.StudentsPage) },
              { path: '/admin/students/:studentId', lazy: lazyPage(admin, (m) => m.StudentDetailPage) },
              { path: '/admin/student-sign-up', lazy: lazyPage(admin, (m) => m.StudentSignUpPage) },
              { path: '/admin/modify-questions', lazy: lazyPage(admin, (m) => m.QuestionsPage) },
              { path: '/admin/modify-questions/:questionId', lazy: lazyPage(admin, (m) => m.QuestionEditPage) },
              { path: '/admin/change-password', lazy: lazyPage(admin, (m) => m.ChangePasswordPage) },
              { path: '/admin/archive', lazy: lazyPage(admin, (m) => m.ArchivePage) },
              { path: '/admin/users', lazy: lazyPage(admin, (m) => m.UsersPage) },
              { path: '/admin/audit', lazy: lazyPage(admin, (m) => m.AuditPage) },
              { path: '/admin/state-filings', lazy: lazyPage(admin, (m) => m.StateFilingsPage) },
              { path: '/court', lazy: lazyPage(admin, (m) => m.CourtCompletionsPage) },
              { path: '/admin/corrections', lazy: lazyPage(admin, (m) => m.CorrectionsPage) },
              { path: '/admin/emails', lazy: lazyPage(admin, (m) => m.EmailsPage) },
            ],
          },
        ],
      },
    ],
  },
]);
