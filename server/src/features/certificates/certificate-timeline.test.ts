import { describe, expect, it } from 'vitest';
import { describeTimeline, type TimelineFacts } from './certificate-timeline.ts';

const PASSED = new Date('2026-11-20T18:00:00Z');
const ISSUED = new Date('2026-11-20T18:00:01Z');
const SENT = new Date('2026-11-20T18:00:09Z');

const facts = (overrides: Partial<TimelineFacts> = {}): TimelineFacts => ({
  passedAt: PASSED,
  issuedAt: ISSUED,
  routing: 'student_and_court',
  deliveries: [
    { recipient: 'student', status: 'sent', attempts: 1, sentAt: SENT, nextAttemptAt: SENT },
    { recipient: 'court', status: 'sent', attempts: 1, sentAt: SENT, nextAttemptAt: SENT },
  ],
  stateFiledAt: null,
  acknowledgedAt: null,
  ...overrides,
});

/** Where a certificate is, as the student's tracker shows it. */
describe('the certificate timeline', () => {
  it('walks from passed to received by the court, with the moment of each step done', () => {
    const acknowledged = new Date('2026-11-22T16:00:00Z');
    expect(describeTimeline(facts({ acknowledgedAt: acknowledged }))).toEqual([
      { step: 'passed', at: PASSED.toISOString(), state: 'done' },
      { step: 'issued', at: ISSUED.toISOString(), state: 'done' },
      { step: 'emailed_student', at: SENT.toISOString(), state: 'done' },
      { step: 'sent_to_court', at: SENT.toISOString(), state: 'done' },
      { step: 'court_acknowledged', at: acknowledged.toISOString(), state: 'done' },
    ]);
  });

  it('says an email being retried is retrying, one that failed for good is failed, and one not yet tried is pending', () => {
    const steps = describeTimeline(
      facts({
        deliveries: [
          { recipient: 'student', status: 'queued', attempts: 2, sentAt: null, nextAttemptAt: SENT },
          { recipient: 'court', status: 'failed', attempts: 9, sentAt: null, nextAttemptAt: SENT },
        ],
      }),
    );
    expect(steps.map((step) => [step.step, step.state])).toEqual([
      ['passed', 'done'],
      ['issued', 'done'],
      ['emailed_student', 'retrying'],
      ['sent_to_court', 'failed'],
      ['court_acknowledged', 'pending'],
    ]);
    const fresh = describeTimeline(
      facts({
        deliveries: [{ recipient: 'student', status: 'queued', attempts: 0, sentAt: null, nextAttemptAt: SENT }],
      }),
    );
    expect(fresh.find((step) => step.step === 'emailed_student')?.state).toBe('pending');
  });

  it('shows the state filing, not a court email, for a certificate held for the state', () => {
    const filed = new Date('2026-11-24T17:00:00Z');
    const steps = describeTimeline(
      facts({
        routing: 'held_for_state_report',
        deliveries: [{ recipient: 'student', status: 'sent', attempts: 1, sentAt: SENT, nextAttemptAt: SENT }],
        stateFiledAt: filed,
      }),
    );
    expect(steps.map((step) => [step.step, step.state])).toEqual([
      ['passed', 'done'],
      ['issued', 'done'],
      ['emailed_student', 'done'],
      ['filed_with_state', 'done'],
      ['court_acknowledged', 'pending'],
    ]);
  });

  it('leaves out the court steps when the student delivers the court copy, and every email step for a certificate sent to no one', () => {
    const studentOnly = describeTimeline(
      facts({
        routing: 'student_only',
        deliveries: [{ recipient: 'student', status: 'sent', attempts: 1, sentAt: SENT, nextAttemptAt: SENT }],
      }),
    );
    expect(studentOnly.map((step) => step.step)).toEqual(['passed', 'issued', 'emailed_student']);
    expect(describeTimeline(facts({ deliveries: [] })).map((step) => step.step)).toEqual(['passed', 'issued']);
  });
});
