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

/**
 * How much of the course is done, in percent: five parts (chapters 1-4 and the final exam), the
 * chapter on screen counted by its steps done (its modules, then its quiz), so four modules of five
 * steps show as progress before the quiz is passed (decision 067).
 */
export function courseProgressPercent(
  completedChapters: readonly number[],
  chapterId: number,
  steps: readonly Step[] | undefined,
): number {
  const partsDone = completedChapters.filter((chapter) => chapter === 6 || (chapter >= 1 && chapter <= 4)).length;
  const stepsDone = steps?.filter((step) => step.state === 'complete').length ?? 0;
  const inChapter = completedChapters.includes(chapterId) || !steps?.length ? 0 : stepsDone / steps.length;
  return ((partsDone + inChapter) / 5) * 100;
}
