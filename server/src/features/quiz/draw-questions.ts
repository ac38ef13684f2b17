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
 * Decision 023, amended by 049: the final exam draws from its own bank, evenly across the chapters
 * it tests (5 each for 20). Each bank offers first the questions this student was never shown in
 * an earlier final attempt, in random order, then those shown longest ago, and never one of the
 * previous attempt (`shownIn`: each question's latest earlier attempt, 0 the first;
 * `previousAttempt`: the latest's index). So what earlier results showed helps a retake only once
 * the bank is used up. The banks are taken in turn, so a share a short bank cannot fill falls to
 * the others; fewer than `count` in all returns fewer, and the caller refuses the draw.
 */
export function drawAcrossBanks(
  banks: readonly (readonly number[])[],
  count: number,
  history: { shownIn: ReadonlyMap<number, number>; previousAttempt: number | undefined },
): number[] {
  const { shownIn, previousAttempt } = history;
  const ordered = shuffle(banks).map((bank) => {
    const drawable = bank.filter((id) => previousAttempt === undefined || shownIn.get(id) !== previousAttempt);
    const neverShown = shuffle(drawable.filter((id) => !shownIn.has(id)));
    // Shuffled first, so questions shown in the same attempt come in random order (the sort is stable).
    const shownLongestAgo = shuffle(drawable.filter((id) => shownIn.has(id))).sort(
      (a, b) => shownIn.get(a)! - shownIn.get(b)!,
    );
    return [...neverShown, ...shownLongestAgo];
  });
  const drawn: number[] = [];
  for (let round = 0; drawn.length < count && ordered.some((bank) => bank.length > round); round++) {
    for (const bank of ordered) {
      const id = bank[round];
      if (id !== undefined && drawn.length < count) drawn.push(id);
    }
  }
  return shuffle(drawn);
}

/** Each question's latest earlier final attempt, from the attempts' question lists, oldest first. */
export function finalExamHistory(attempts: readonly (readonly number[])[]): {
  shownIn: Map<number, number>;
  previousAttempt: number | undefined;
} {
  const shownIn = new Map<number, number>();
  attempts.forEach((questionIds, index) => {
    for (const id of questionIds) shownIn.set(id, index);
  });
  return { shownIn, previousAttempt: attempts.length > 0 ? attempts.length - 1 : undefined };
}
