import { describe, expect, it } from 'vitest';
import type { Step } from '../../components/stepper.tsx';
import { courseProgressPercent } from './chapter-steps.ts';

const steps = (done: number, total: number): Step[] =>
  Array.from({ length: total }, (_, index) => ({
    key: String(index),
    label: `Step ${String(index + 1)}`,
    href: `/step/${String(index)}`,
    state: index < done ? 'complete' : index === done ? 'current' : 'upcoming',
  }));

describe('the course progress a chapter page shows', () => {
  it('counts the modules done in the chapter on screen, not only passed quizzes', () => {
    expect(courseProgressPercent([], 1, steps(4, 5))).toBeCloseTo(16);
  });

  it('counts each passed chapter and the final as a fifth', () => {
    expect(courseProgressPercent([1, 2], 3, steps(0, 5))).toBe(40);
    expect(courseProgressPercent([1, 2, 3, 4, 6], 4, steps(5, 5))).toBe(100);
  });

  it('does not count a passed chapter twice when it is the one on screen', () => {
    expect(courseProgressPercent([1], 1, steps(5, 5))).toBe(20);
  });
});
