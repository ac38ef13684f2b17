import { describe, expect, it } from 'vitest';
import { remindersDueOn } from './reminder-schedule.ts';

const on = (today: string, dates: { courtDueDate?: string; windowEnds?: string }, registeredOn = '2027-01-01') =>
  remindersDueOn({
    registeredOn,
    today,
    courtDueDate: dates.courtDueDate ?? null,
    windowEnds: dates.windowEnds ?? null,
  }).map((reminder) => `${reminder.kind}:${String(reminder.threshold)}:${String(reminder.daysLeft)}`);

describe('which reminders are due on a day (decision 059)', () => {
  it('is the 7-day reminder from 7 to 3 days before, the 2-day one on the last two days, nothing on the date or after', () => {
    const court = { courtDueDate: '2027-02-10' };
    expect(on('2027-02-02', court)).toEqual([]);
    expect(on('2027-02-03', court)).toEqual(['court:7:7']);
    expect(on('2027-02-07', court)).toEqual(['court:7:3']);
    expect(on('2027-02-08', court)).toEqual(['court:2:2']);
    expect(on('2027-02-09', court)).toEqual(['court:2:1']);
    expect(on('2027-02-10', court)).toEqual([]);
    expect(on('2027-02-11', court)).toEqual([]);
  });

  it("sends a threshold's reminder only to a student registered before its day", () => {
    const court = { courtDueDate: '2027-02-10' };
    // Registered 3 days before: no late 7-day reminder, the 2-day one when it comes.
    expect(on('2027-02-07', court, '2027-02-07')).toEqual([]);
    expect(on('2027-02-08', court, '2027-02-07')).toEqual(['court:2:2']);
    // Registered on the 7-day mark itself: that day has shown them the date.
    expect(on('2027-02-03', court, '2027-02-03')).toEqual([]);
    expect(on('2027-02-03', court, '2027-02-02')).toEqual(['court:7:7']);
  });

  it("reminds of the court's date and the window's end each on its own, and once when they are the same day", () => {
    expect(on('2027-02-08', { courtDueDate: '2027-02-10', windowEnds: '2027-02-15' })).toEqual([
      'court:2:2',
      'window:7:7',
    ]);
    const sameDay = remindersDueOn({
      registeredOn: '2027-01-01',
      today: '2027-02-08',
      courtDueDate: '2027-02-10',
      windowEnds: '2027-02-10',
    });
    expect(sameDay).toEqual([
      { kind: 'court', threshold: 2, date: '2027-02-10', daysLeft: 2, windowEndsTheSameDay: true },
    ]);
  });
});
