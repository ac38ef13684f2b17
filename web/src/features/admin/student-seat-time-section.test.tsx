// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminStudent } from '@ts/contract';
import i18n from '../../lib/i18n.ts';
import { render as renderPage, unmountAll } from '../../testing/page.tsx';
import { StudentSeatTimeSection } from './student-seat-time-section.tsx';

const render = (seatTime: AdminStudent['seat_time']) => renderPage(<StudentSeatTimeSection seatTime={seatTime} />);

afterEach(async () => {
  unmountAll();
  await i18n.changeLanguage('en');
});

const rowsOf = (container: HTMLElement) =>
  [...container.querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('th, td')].map((cell) => cell.textContent),
  );

describe("the student's study time on the admin detail", () => {
  const fourHour: NonNullable<AdminStudent['seat_time']> = {
    chapters: [
      { chapter_id: 1, counted_seconds: 3150, required_seconds: 3000 },
      { chapter_id: 2, counted_seconds: 420, required_seconds: 3000 },
      { chapter_id: 3, counted_seconds: 0, required_seconds: 3000 },
      { chapter_id: 4, counted_seconds: 0, required_seconds: 3000 },
    ],
    counted_seconds: 3570,
    required_seconds: 14400,
    first_activity_at: '2026-11-20T15:00:00Z',
    last_activity_at: '2026-11-21T16:30:00Z',
  };

  it('lists the time counted per chapter and in all against the minimums, with the first and last activity', () => {
    const container = render(fourHour);
    expect(container.querySelector('h2')?.textContent).toBe('Study time');
    expect(rowsOf(container)).toEqual([
      ['Chapter 1', '52 min 30 s', '50 min'],
      ['Chapter 2', '7 min', '50 min'],
      ['Chapter 3', '0 s', '50 min'],
      ['Chapter 4', '0 s', '50 min'],
      ['Whole course', '59 min 30 s', '4 h'],
    ]);
    expect(container.textContent).toMatch(/First counted activity: Nov 20, 2026/);
    expect(container.textContent).toMatch(/Last counted activity: Nov 21, 2026/);
  });

  it('says when the profile has no minimum, and shows nothing without study time to report', () => {
    const container = render({
      ...fourHour,
      chapters: fourHour.chapters.map((chapter) => ({ ...chapter, required_seconds: 0 })),
      required_seconds: 0,
    });
    expect(rowsOf(container).map((row) => row[2])).toEqual(Array(5).fill('No minimum'));
    expect(render(null).textContent).toBe('');
  });

  it('speaks Spanish when the page does', async () => {
    await i18n.changeLanguage('es');
    const container = render(fourHour);
    expect(container.querySelector('h2')?.textContent).toBe('Tiempo de estudio');
    expect(rowsOf(container).at(-1)?.[0]).toBe('Todo el curso');
  });
});
