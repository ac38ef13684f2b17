// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionUser } from '@ts/contract';
import { clearStoredUser, forgetAnswersWhenThePersonChanges, storeUser } from './stored-user.ts';

const student = (id: number, name: string): SessionUser => ({
  id,
  type: 'student',
  name,
  court_id: 1,
  payment_at: null,
  completed_at: null,
});

describe('the answers the app keeps, on a shared computer', () => {
  let stop = () => undefined as void;
  afterEach(() => {
    stop();
    localStorage.clear();
  });

  it('are forgotten when another person signs in after the first left, not at the sign-out itself, nor for the same person', () => {
    storeUser(student(1, 'Alice'));
    let forgotten = 0;
    stop = forgetAnswersWhenThePersonChanges(() => {
      forgotten += 1;
    });

    storeUser({ ...student(1, 'Alice'), payment_at: '2026-11-27T10:00:00Z' });
    expect(forgotten).toBe(0);
    clearStoredUser();
    expect(forgotten).toBe(0);
    storeUser(student(1, 'Alice'));
    expect(forgotten).toBe(0);
    clearStoredUser();
    storeUser(student(2, 'Bob'));
    expect(forgotten).toBe(1);
  });

  it('are forgotten when another person signs in after the storage was wiped without a word (a retake)', () => {
    storeUser(student(1, 'Alice'));
    let forgotten = 0;
    stop = forgetAnswersWhenThePersonChanges(() => {
      forgotten += 1;
    });
    localStorage.clear();
    storeUser(student(2, 'Bob'));
    expect(forgotten).toBe(1);
  });
});
