import { randomInt } from 'node:crypto';

/** A fair shuffle (Fisher-Yates) with a cryptographic source, so draws cannot be predicted. */
export function shuffle<T>(items: readonly T[]): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

/**
 * Draws `count` questions from a bank, taking those not in the previous attempt first, so a
 * retake sees different questions wherever the bank is large enough.
 */
export function drawQuestions(bank: readonly number[], count: number, previous: ReadonlySet<number>): number[] {
  const fresh = shuffle(bank.filter((id) => !previous.has(id)));
  const repeated = shuffle(bank.filter((id) => previous.has(id)));
  return [...fresh, ...repeated].slice(0, count);
}

/**
 * Decision 008: the final exam draws evenly from the four chapter banks (5 each for 20), each
 * share avoiding the previous attempt's questions where it can, then shuffled together.
 */
export function drawAcrossBanks(
  banks: readonly (readonly number[])[],
  count: number,
  previous: ReadonlySet<number>,
): number[] {
  const perBank = Math.floor(count / banks.length);
  let remainder = count - perBank * banks.length;
  const drawn = banks.flatMap((bank) => {
    const take = perBank + (remainder > 0 ? 1 : 0);
    if (remainder > 0) remainder -= 1;
    return drawQuestions(bank, take, previous);
  });
  return shuffle(drawn);
}
