import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prepareOnce } from '../../db/prepared.ts';
import { quizAttempts } from '../../db/schema.ts';
import type { OpenAttempt } from './open-attempts.ts';

/** What a drawn attempt is saved with. */
export type DrawnAttempt = Omit<OpenAttempt, 'id'> & { questionIds: number[]; createdAt: Date };

/** The columns an open attempt is shown and graded from. */
const OPEN_ATTEMPT_COLUMNS = {
  id: quizAttempts.id,
  studentId: quizAttempts.studentId,
  chapterId: quizAttempts.chapterId,
  questionIds: quizAttempts.questionIds,
  answerOrder: quizAttempts.answerOrder,
  rulesProfileId: quizAttempts.rulesProfileId,
  rulesProfileVersion: quizAttempts.rulesProfileVersion,
};

/**
 * A student has one open attempt per quiz (decision 055): the partial unique index
 * quiz_attempts_one_open_key (migration 0031) keeps the second of two draws at once from being
 * saved, so both requests show the same quiz.
 */
const oneOpenAttempt = {
  target: [quizAttempts.studentId, quizAttempts.chapterId],
  where: sql`${quizAttempts.submittedAt} is null`,
};

/**
 * Saves a drawn attempt unless the student already has one open at that quiz, and answers the
 * attempt that is open afterwards: this one, or the one a request at the same moment saved first.
 * The insert is one statement, not a transaction, so no pool connection waits in a transaction
 * for this instance's next turn (decision 031).
 */
export async function saveDrawnAttempt(db: Db, drawn: DrawnAttempt): Promise<OpenAttempt> {
  // Twice at most: the open attempt found on a conflict can be graded before it is read.
  for (let turn = 0; turn < 2; turn++) {
    const [saved] = await prepareOnce(db, 'save_drawn_attempt', (database) =>
      database
        .insert(quizAttempts)
        .values({
          studentId: sql.placeholder('studentId'),
          chapterId: sql.placeholder('chapterId'),
          questionIds: sql.placeholder('questionIds'),
          answerOrder: sql.placeholder('answerOrder'),
          createdAt: sql.placeholder('createdAt'),
          rulesProfileId: sql.placeholder('rulesProfileId'),
          rulesProfileVersion: sql.placeholder('rulesProfileVersion'),
        })
        .onConflictDoNothing(oneOpenAttempt)
        .returning(OPEN_ATTEMPT_COLUMNS)
        .prepare('save_drawn_attempt'),
    ).execute(drawn);
    if (saved) return saved;
    // The conflict waited for the other draw to commit, so a new statement sees its attempt.
    const [open] = await db
      .select(OPEN_ATTEMPT_COLUMNS)
      .from(quizAttempts)
      .where(
        and(
          eq(quizAttempts.studentId, drawn.studentId),
          eq(quizAttempts.chapterId, drawn.chapterId),
          isNull(quizAttempts.submittedAt),
        ),
      );
    if (open) return open;
  }
  throw new Error('the drawn attempt was neither saved nor found open');
}
