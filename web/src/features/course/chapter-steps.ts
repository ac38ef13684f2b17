import type { Module, QuizStatus } from '@ts/contract';
import type { Step } from '../../components/stepper.tsx';

/**
 * Spec 2 and 4: a chapter's steps are its modules and then its quiz. A step is complete, the
 * first step not complete is current, the rest are upcoming. The quiz step is complete only when
 * complete is true and the status is PASS.
 */
export function buildChapterSteps(
  chapterId: number,
  modules: Module[],
  quizStatus: QuizStatus | undefined,
  quizLabel: string,
): Step[] {
  const quizComplete = quizStatus?.complete === true && quizStatus.status === 'PASS';
  const raw = [
    ...modules.map((module) => ({
      key: `module-${String(module.id)}`,
      label: module.title,
      href: module.href,
      done: module.complete,
    })),
    { key: 'quiz', label: quizLabel, href: `/quiz/${String(chapterId)}`, done: quizComplete },
  ];
  const currentIndex = raw.findIndex((step) => !step.done);
  return raw.map((step, index) => ({
    key: step.key,
    label: step.label,
    href: step.href,
    state: step.done ? 'complete' : index === currentIndex ? 'current' : 'upcoming',
  }));
}

/**
 * Spec 4: where Continue goes after a step. After the quiz, chapters 1-3 go to the next chapter,
 * chapter 4 goes to the final exam (the spec's /content/5 reading leads there too).
 */
export function nextStepHref(chapterId: number, modules: Module[], moduleId: number): string {
  const index = modules.findIndex((module) => module.id === moduleId);
  const next = modules[index + 1];
  return next ? next.href : `/quiz/${String(chapterId)}`;
}

export function nextChapterHref(chapterId: number): string {
  return chapterId >= 4 ? '/final' : `/content/${String(chapterId + 1)}`;
}
