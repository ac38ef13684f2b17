// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n.ts';
import { strictRulesWith, studentRulesWith } from '../../testing/rules.ts';
import { describeRules } from './rules-summary.tsx';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const describe_ = (rules: Parameters<typeof describeRules>[0]) => describeRules(rules, i18n.t, i18n.language);

describe('a court’s rules in plain sentences (decision 021)', () => {
  it('says the spec’s course as it is: no minimum time, 7 of 10 and 14 of 20, unlimited retakes, court notified', () => {
    expect(describe_(studentRulesWith())).toEqual([
      'No minimum study time: go at your own pace.',
      'No identity questions during the course.',
      'Each chapter quiz: 10 questions, 7 correct to pass. Retake as many times as you need.',
      'Final exam: 20 questions, 14 correct to pass. Retake as many times as you need.',
      'No time limit from the school (your court’s own date still applies).',
      'Your certificate is emailed to you and to your court.',
    ]);
  });

  it('says a strict court’s hours, identity checks, 2 final attempts a day apart and 60 days', () => {
    const lines = describe_(strictRulesWith());
    expect(lines).toContain('At least 4 hours of active study before the final exam.');
    expect(lines).toContain('At least 50 min of study in each chapter before its quiz.');
    expect(lines).toContain(
      'Questions about your own details (such as your date of birth) at random moments; you have 90 seconds to answer each.',
    );
    expect(lines).toContain(
      'Final exam: 20 questions, 15 correct to pass. 2 attempts allowed. After a failed attempt, wait 24 hours before the next.',
    );
    expect(lines).toContain('60 days from registration to finish the course.');
  });

  it('says the attempts the school granted beyond the rules', () => {
    const lines = describe_(
      studentRulesWith({
        extraAttempts: [
          { chapter: 2, attempts: 1 },
          { chapter: 6, attempts: 2 },
        ],
      }),
    );
    expect(lines).toContain('The school granted you 1 more attempt at the Chapter 2 quiz.');
    expect(lines).toContain('The school granted you 2 more attempts at the final exam.');
    expect(describe_(studentRulesWith()).join(' ')).not.toContain('granted');
  });

  it('never promises the court a certificate it has no address for, or that the state reports', () => {
    expect(describe_(studentRulesWith({ courtHasEmail: false })).at(-1)).toBe(
      'Your certificate is emailed to you; give it to your court yourself.',
    );
    expect(describe_(studentRulesWith({ certificateRouting: 'held_for_state_report' })).at(-1)).toBe(
      'Your certificate is emailed to you, and the school reports your completion to the state.',
    );
  });

  it('says it in Spanish', async () => {
    await i18n.changeLanguage('es');
    expect(
      describe_(
        strictRulesWith({
          quizzes: {
            ...strictRulesWith().quizzes,
            chapter: { questions: 10, passMark: 8, attempts: 3, waitMinutes: 0 },
          },
        }),
      ),
    ).toContain('Cuestionario de cada capítulo: 10 preguntas, 8 correctas para aprobar. Se permiten 3 intentos.');
  });
});
