import { createBrowserRouter } from 'react-router';
import { AdminLoginPage } from '../features/auth/admin-login-page.tsx';
import { StudentLoginPage } from '../features/auth/student-login-page.tsx';
import { AdminIndexPage } from '../features/admin/admin-pages.tsx';
import { AuditPage } from '../features/admin/audit-page.tsx';
import { ChangePasswordPage } from '../features/admin/change-password-page.tsx';
import { QuestionEditPage } from '../features/admin/question-edit-page.tsx';
import { QuestionsPage } from '../features/admin/questions-page.tsx';
import { StudentSignUpPage } from '../features/admin/student-sign-up-page.tsx';
import { StudentsPage } from '../features/admin/students-page.tsx';
import { UsersPage } from '../features/admin/users-page.tsx';
import { SetPasswordPage } from '../features/auth/set-password-page.tsx';
import { ArchivePage } from '../features/admin/archive-page.tsx';
import { StudentDetailPage } from '../features/admin/student-detail-page.tsx';
import { CertificatesPage } from '../features/certificates/certificates-page.tsx';
import { VerifyPage } from '../features/certificates/verify-page.tsx';
import { ChapterPage } from '../features/course/chapter-page.tsx';
import { ModulePage } from '../features/course/module-page.tsx';
import { QuizPage } from '../features/course/quiz-page.tsx';
import { ScorePage } from '../features/course/score-page.tsx';
import { VideoTestPage } from '../features/course/video-test-page.tsx';
import { HomePage } from '../features/home/home-page.tsx';
import { PayPage } from '../features/payments/pay-page.tsx';
import { ThankYouPage } from '../features/payments/thank-you-page.tsx';
import { RegisterPage } from '../features/registration/register-page.tsx';
import { AdminLayout } from './admin-layout.tsx';
import { AreaGuard, LoginPageGuard } from './guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { PublicLayout } from './public-layout.tsx';
import { StudentLayout } from './student-layout.tsx';

/** Every route of spec section 2. */
export const router = createBrowserRouter([
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
      { path: '/register', element: <RegisterPage /> },
      { path: '/pay', element: <PayPage /> },
      { path: '/thank-you', element: <ThankYouPage /> },
      { path: '/verify/:number', element: <VerifyPage /> },
      { path: '/set-password', element: <SetPasswordPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    element: <AreaGuard area="student" />,
    children: [
      {
        element: <StudentLayout />,
        children: [
          { path: '/', element: <HomePage /> },
          { path: '/content/:chapterId', element: <ChapterPage /> },
          { path: '/content/:chapterId/:moduleId', element: <ModulePage /> },
          { path: '/quiz/:chapterId', element: <QuizPage /> },
          // Spec 2 gives both paths for the final exam.
          { path: '/final', element: <QuizPage final /> },
          { path: '/final-exam', element: <QuizPage final /> },
          { path: '/certificate', element: <CertificatesPage /> },
          { path: '/score', element: <ScorePage /> },
          { path: '/video-test', element: <VideoTestPage /> },
        ],
      },
    ],
  },
  {
    element: <AreaGuard area="admin" />,
    children: [
      {
        element: <AdminLayout />,
        children: [
          { path: '/admin', element: <AdminIndexPage /> },
          { path: '/admin/students', element: <StudentsPage /> },
          { path: '/admin/students/:studentId', element: <StudentDetailPage /> },
          { path: '/admin/student-sign-up', element: <StudentSignUpPage /> },
          { path: '/admin/modify-questions', element: <QuestionsPage /> },
          { path: '/admin/modify-questions/:questionId', element: <QuestionEditPage /> },
          { path: '/admin/change-password', element: <ChangePasswordPage /> },
          { path: '/admin/archive', element: <ArchivePage /> },
          { path: '/admin/users', element: <UsersPage /> },
          { path: '/admin/audit', element: <AuditPage /> },
        ],
      },
    ],
  },
]);
