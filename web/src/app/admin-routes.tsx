// The admin area's pages, one script fetched when staff first open it (router.tsx, decision 020): a
// student never downloads it.
export { AdminLayout } from './admin-layout.tsx';
export { AdminIndexPage } from '../features/admin/admin-pages.tsx';
export { AuditPage } from '../features/admin/audit-page.tsx';
export { ChangePasswordPage } from '../features/admin/change-password-page.tsx';
export { QuestionEditPage } from '../features/admin/question-edit-page.tsx';
export { QuestionsPage } from '../features/admin/questions-page.tsx';
export { StudentSignUpPage } from '../features/admin/student-sign-up-page.tsx';
export { StudentsPage } from '../features/admin/students-page.tsx';
export { UsersPage } from '../features/admin/users-page.tsx';
export { ArchivePage } from '../features/admin/archive-page.tsx';
export { StudentDetailPage } from '../features/admin/student-detail-page.tsx';
export { StateFilingsPage } from '../features/admin/state-filings-page.tsx';
export { CourtCompletionsPage } from '../features/admin/court-completions-page.tsx';
export { CorrectionsPage } from '../features/admin/corrections-page.tsx';
export { EmailsPage } from '../features/admin/emails-page.tsx';
