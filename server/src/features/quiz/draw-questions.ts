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
 * Issue 17 (decision 023): the final exam draws from its own bank, evenly across the chapters it
 * tests (5 each for 20), and never repeats a question of the previous attempt: a retake is a
 * different form. The banks are taken in turn, so a share a short bank cannot fill falls to the
 * others; fewer than `count` fresh questions in all returns fewer, and the caller refuses the draw.
 */
export function drawAcrossBanks(
  banks: readonly (readonly number[])[],
  count: number,
  previous: ReadonlySet<number>,
): number[] {
  const fresh = shuffle(banks).map((bank) => shuffle(bank.filter((id) => !previous.has(id))));
  const drawn: number[] = [];
  for (let round = 0; drawn.length < count && fresh.some((bank) => bank.length > round); round++) {
    for (const bank of fresh) {
      const id = bank[round];
      if (id !== undefined && drawn.length < count) drawn.push(id);
    }
  }
  return shuffle(drawn);
}
