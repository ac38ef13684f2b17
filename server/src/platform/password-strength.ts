import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as commonPackage from '@zxcvbn-ts/language-common';
import * as englishPackage from '@zxcvbn-ts/language-en';

/**
 * Decision 047: a staff password is scored by zxcvbn-ts with its common-password and English
 * dictionaries (its documented set-up); below this score ("safely unguessable: moderate
 * protection from offline slow-hash attacks") it is refused.
 */
export const MIN_STAFF_PASSWORD_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;

/** Built on first use: the dictionaries take a moment to index, and most starts never need them. */
function strengthEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    graphs: commonPackage.adjacencyGraphs,
    dictionary: { ...commonPackage.dictionary, ...englishPackage.dictionary },
  });
  return estimator;
}

/** Lower case, letters and digits only: how a name is looked for inside a password. */
const fold = (text: string) =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/**
 * Why a staff password is too weak, or null: it holds the member's username or the local part of
 * their email (names of three characters or more), or the estimator scores it below
 * MIN_STAFF_PASSWORD_SCORE with those names as known words. Its length is the contract's rule.
 */
export function staffPasswordWeakness(
  password: string,
  member: { username: string; email: string },
): 'contains_name' | 'too_guessable' | null {
  const names = [member.username, member.email.split('@')[0] ?? ''].map(fold).filter((name) => name.length >= 3);
  const folded = fold(password);
  if (names.some((name) => folded.includes(name))) return 'contains_name';
  const { score } = strengthEstimator().check(password, [member.username, member.email, ...names]);
  return score < MIN_STAFF_PASSWORD_SCORE ? 'too_guessable' : null;
}
