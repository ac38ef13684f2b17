import type { CertificateTimelineStep, DeliveryStatus } from '@ts/contract';

/** A delivery row as the timeline reads it. */
interface DeliveryFacts {
  recipient: 'student' | 'court';
  status: DeliveryStatus;
  attempts: number;
  sentAt: Date | null;
  nextAttemptAt: Date;
}

/** What a certificate's timeline is told of it. */
export interface TimelineFacts {
  passedAt: Date | null;
  issuedAt: Date;
  routing: 'student_and_court' | 'student_only' | 'held_for_state_report';
  deliveries: readonly DeliveryFacts[];
  stateFiledAt: Date | null;
  acknowledgedAt: Date | null;
}

/**
 * A delivery as a step: sent, failed for good, cancelled (a correction replaced the certificate
 * before it went: the reissue's own steps follow it), being retried after a failure, or waiting.
 */
function deliveryStep(step: CertificateTimelineStep['step'], delivery: DeliveryFacts): CertificateTimelineStep {
  if (delivery.status === 'sent') return { step, at: delivery.sentAt?.toISOString() ?? null, state: 'done' };
  if (delivery.status === 'failed' || delivery.status === 'cancelled')
    return { step, at: null, state: delivery.status };
  return { step, at: null, state: delivery.attempts > 0 ? 'retrying' : 'pending' };
}

/**
 * Where a certificate is, between "passed" and "the court has it", as the student's
 * Certificates page shows it: passed, issued, emailed to the student, sent to the court (or filed
 * with the state, under that routing), received by the court. Steps the school does not take for
 * this certificate (no court email under student_only, no email at all for a certificate issued
 * without one) are left out rather than shown as waiting forever.
 */
export function describeTimeline(facts: TimelineFacts): CertificateTimelineStep[] {
  const steps: CertificateTimelineStep[] = [
    { step: 'passed', at: facts.passedAt?.toISOString() ?? null, state: 'done' },
    { step: 'issued', at: facts.issuedAt.toISOString(), state: 'done' },
  ];
  const toStudent = facts.deliveries.find((delivery) => delivery.recipient === 'student');
  if (toStudent) steps.push(deliveryStep('emailed_student', toStudent));
  if (facts.routing === 'held_for_state_report') {
    steps.push({
      step: 'filed_with_state',
      at: facts.stateFiledAt?.toISOString() ?? null,
      state: facts.stateFiledAt ? 'done' : 'pending',
    });
  }
  const toCourt = facts.deliveries.find((delivery) => delivery.recipient === 'court');
  if (toCourt) steps.push(deliveryStep('sent_to_court', toCourt));
  // The court can say it has it once the school sent it (or filed it), or whenever it did say so.
  if (toCourt || facts.routing === 'held_for_state_report' || facts.acknowledgedAt) {
    steps.push({
      step: 'court_acknowledged',
      at: facts.acknowledgedAt?.toISOString() ?? null,
      state: facts.acknowledgedAt ? 'done' : 'pending',
    });
  }
  return steps;
}
