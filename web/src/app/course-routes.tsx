// The student area's pages, one script fetched when a signed-in student first opens the course
// (router.tsx, decision 020).
import { QuizPage } from '../features/course/quiz-page.tsx';

export { ChapterPage } from '../features/course/chapter-page.tsx';
export { ModulePage } from '../features/course/module-page.tsx';
export { QuizPage } from '../features/course/quiz-page.tsx';
export { ScorePage } from '../features/course/score-page.tsx';
export { VideoTestPage } from '../features/course/video-test-page.tsx';
export { PersonalQuestionsPage } from '../features/course/personal-questions.tsx';
export { CertificatesPage } from '../features/certificates/certificates-page.tsx';

/** Spec 2 gives both /final and /final-exam for the final exam. */
export function FinalExamPage() {
  return <QuizPage final />;
}
