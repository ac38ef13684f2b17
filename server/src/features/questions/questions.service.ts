import { and, asc, eq, ne } from 'drizzle-orm';
import type { AdminQuestion } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { answers, questions } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';

/**
 * Question and answer texts are plain text: the quiz, results and admin pages render them as
 * text (never as HTML), so they are stored as typed and need no sanitising.
 */

/** An absent Spanish text is left as it is; an empty one is cleared (students then see the English). */
function spanishUpdate(current: string | null, submitted: string | undefined): string | null {
  if (submitted === undefined) return current;
  return submitted === '' ? null : submitted;
}

/** Spec 2 /admin/modify-questions/{id}: one question of a bank with its answers, in both languages. */
export async function getAdminQuestion(db: Db, questionId: number): Promise<AdminQuestion> {
  const [question] = await db.select().from(questions).where(eq(questions.id, questionId));
  if (!question) throw notFound('No such question.');
  const choices = await db
    .select()
    .from(answers)
    .where(eq(answers.questionId, questionId))
    .orderBy(asc(answers.position));
  return {
    id: question.id,
    chapter_id: question.chapterId,
    question: question.question,
    question_es: question.questionEs,
    active: question.active,
    answers: choices.map((answer) => ({
      id: answer.id,
      content: answer.content,
      content_es: answer.contentEs,
      correct: answer.isCorrect,
    })),
  };
}

/**
 * Spec 7 POST /admin/edit/question/{id}: changes a question's text. Results already given keep
 * their own copy (quiz_attempts.result), so only later draws show the new text. The change and
 * its audit entry are committed together; an edit that changes nothing writes nothing.
 */
export async function editQuestion(
  db: Db,
  clock: Clock,
  input: { staffId: number; questionId: number; content: string; contentEs?: string | undefined },
): Promise<AdminQuestion> {
  return db.transaction(async (tx) => {
    const [question] = await tx.select().from(questions).where(eq(questions.id, input.questionId)).for('update');
    if (!question) throw notFound('No such question.');

    const before: Record<string, string | null> = {};
    const after: Record<string, string | null> = {};
    if (input.content !== question.question) {
      before.question = question.question;
      after.question = input.content;
    }
    const questionEs = spanishUpdate(question.questionEs, input.contentEs);
    if (questionEs !== question.questionEs) {
      before.question_es = question.questionEs;
      after.question_es = questionEs;
    }
    if (Object.keys(after).length > 0) {
      await tx.update(questions).set({ question: input.content, questionEs }).where(eq(questions.id, question.id));
      await recordAudit(tx, clock, {
        staffId: input.staffId,
        action: 'edit_question',
        entityType: 'question',
        entityId: question.id,
        before,
        after,
      });
    }
    return getAdminQuestion(tx, question.id);
  });
}

/**
 * Spec 7 POST /admin/edit/answer/{id}: changes an answer's text and, with `correct: true`, makes
 * it its question's one correct answer (the others become incorrect) in the same transaction.
 * A question always has exactly one correct answer, so `correct: false` on the correct answer is
 * refused: another answer is made correct instead.
 */
export async function editAnswer(
  db: Db,
  clock: Clock,
  input: {
    staffId: number;
    answerId: number;
    content: string;
    contentEs?: string | undefined;
    correct?: boolean | undefined;
  },
): Promise<AdminQuestion> {
  return db.transaction(async (tx) => {
    const [found] = await tx.select().from(answers).where(eq(answers.id, input.answerId));
    if (!found) throw notFound('No such answer.');
    // One edit of a question's answers at a time, so two admins choosing different correct
    // answers at once cannot leave it with two (or none).
    await tx.select({ id: questions.id }).from(questions).where(eq(questions.id, found.questionId)).for('update');
    const [answer] = await tx.select().from(answers).where(eq(answers.id, input.answerId));
    if (!answer) throw notFound('No such answer.');

    if (input.correct === false && answer.isCorrect) {
      throw new AppError(
        'CORRECT_ANSWER_REQUIRED',
        'A question always has one correct answer: choose another answer as correct instead.',
      );
    }

    const before: Record<string, string | number | boolean | null> = {};
    const after: Record<string, string | number | boolean | null> = {};
    if (input.content !== answer.content) {
      before.content = answer.content;
      after.content = input.content;
    }
    const contentEs = spanishUpdate(answer.contentEs, input.contentEs);
    if (contentEs !== answer.contentEs) {
      before.content_es = answer.contentEs;
      after.content_es = contentEs;
    }
    const becomesCorrect = input.correct === true && !answer.isCorrect;
    if (becomesCorrect) {
      const [previous] = await tx
        .select({ id: answers.id })
        .from(answers)
        .where(and(eq(answers.questionId, answer.questionId), eq(answers.isCorrect, true)));
      before.correct = false;
      before.correct_answer_id = previous?.id ?? null;
      after.correct = true;
      after.correct_answer_id = answer.id;
      await tx
        .update(answers)
        .set({ isCorrect: false })
        .where(and(eq(answers.questionId, answer.questionId), ne(answers.id, answer.id)));
    }

    if (Object.keys(after).length > 0) {
      await tx
        .update(answers)
        .set({ content: input.content, contentEs, isCorrect: answer.isCorrect || becomesCorrect })
        .where(eq(answers.id, answer.id));
      await recordAudit(tx, clock, {
        staffId: input.staffId,
        action: 'edit_answer',
        entityType: 'answer',
        entityId: answer.id,
        before,
        after,
      });
    }
    return getAdminQuestion(tx, answer.questionId);
  });
}

/**
 * The question page's one Save (decision 021): the question's texts, every answer's texts and the
 * correct answer, in one transaction, so a failure leaves the question as it was. Each change is
 * made and audited as the spec's edit calls make it (one entry per question or answer changed);
 * nothing changed writes nothing. The answers sent are exactly this question's, the correct one
 * among them.
 */
export async function saveQuestion(
  db: Db,
  clock: Clock,
  input: {
    staffId: number;
    questionId: number;
    content: string;
    contentEs: string;
    answers: { id: number; content: string; contentEs: string }[];
    correctAnswerId: number;
  },
): Promise<AdminQuestion> {
  return db.transaction(async (tx) => {
    const current = await getAdminQuestion(tx, input.questionId);
    const own = current.answers.map((answer) => answer.id).sort((a, b) => a - b);
    const sent = input.answers.map((answer) => answer.id).sort((a, b) => a - b);
    if (own.join() !== sent.join() || !sent.includes(input.correctAnswerId)) {
      throw notFound('No such answer of this question.');
    }
    await editQuestion(tx, clock, {
      staffId: input.staffId,
      questionId: input.questionId,
      content: input.content,
      contentEs: input.contentEs,
    });
    for (const answer of input.answers) {
      await editAnswer(tx, clock, {
        staffId: input.staffId,
        answerId: answer.id,
        content: answer.content,
        contentEs: answer.contentEs,
        ...(answer.id === input.correctAnswerId ? { correct: true } : {}),
      });
    }
    return getAdminQuestion(tx, input.questionId);
  });
}
