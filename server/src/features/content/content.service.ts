import { asc, eq, type SQL } from 'drizzle-orm';
import type { Chapter, Module, Topic, Video } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { chapters, modules, questions, topics, videos } from '../../db/schema.ts';
import { listCompletedModuleIds } from '../progress/progress.queries.ts';
import { notFound } from '../../plugins/errors.ts';
import { type Language, pick } from '../../plugins/language.ts';

export async function listChapters(db: Db, language: Language): Promise<Chapter[]> {
  const rows = await db.select().from(chapters).orderBy(asc(chapters.position));
  return rows.map((row) => ({
    id: row.id,
    title: pick(language, row.title, row.titleEs),
    description: pick(language, row.description, row.descriptionEs),
  }));
}

/** Modules with whether this student completed each (progress owns the completions). */
async function selectModules(
  db: Db,
  input: { studentId: number; language: Language; where: SQL | undefined },
): Promise<Module[]> {
  const rows = await db
    .select({ id: modules.id, chapterId: modules.chapterId, title: modules.title, titleEs: modules.titleEs })
    .from(modules)
    .where(input.where)
    .orderBy(asc(modules.position));
  const completed = await listCompletedModuleIds(db, {
    studentId: input.studentId,
    moduleIds: rows.map((row) => row.id),
  });
  return rows.map((row) => ({
    id: row.id,
    chapter_id: row.chapterId,
    title: pick(input.language, row.title, row.titleEs),
    complete: completed.has(row.id),
    href: `/content/${String(row.chapterId)}/${String(row.id)}`,
  }));
}

/** Spec 3 Module: id, chapter_id, title, complete (for this student), href. */
export async function listModulesForStudent(
  db: Db,
  input: { chapterId: number; studentId: number; language: Language },
): Promise<Module[]> {
  return selectModules(db, { ...input, where: eq(modules.chapterId, input.chapterId) });
}

export async function getModuleForStudent(
  db: Db,
  input: { moduleId: number; studentId: number; language: Language },
): Promise<Module> {
  const [module] = await selectModules(db, { ...input, where: eq(modules.id, input.moduleId) });
  if (!module) throw notFound('No such module.');
  return module;
}

export async function listTopics(db: Db, moduleId: number, language: Language): Promise<Topic[]> {
  const rows = await db.select().from(topics).where(eq(topics.moduleId, moduleId)).orderBy(asc(topics.position));
  return rows.map((row) => ({
    id: row.id,
    title: pick(language, row.title, row.titleEs),
    html_content: pick(language, row.htmlContent, row.htmlContentEs),
  }));
}

export async function findVideo(db: Db, moduleId: number, language: Language): Promise<Video | null> {
  const [row] = await db.select().from(videos).where(eq(videos.moduleId, moduleId));
  if (!row) return null;
  return {
    path: row.path,
    question: pick(language, row.question, row.questionEs),
    correctAnswer: pick(language, row.correctAnswer, row.correctAnswerEs),
    incorrectAnswer: pick(language, row.incorrectAnswer, row.incorrectAnswerEs),
  };
}

/** The question banks for staff (Modify Questions), in English as they are edited. */
export async function listQuestions(db: Db): Promise<{ id: number; chapter_id: number; question: string }[]> {
  return db
    .select({ id: questions.id, chapter_id: questions.chapterId, question: questions.question })
    .from(questions)
    .orderBy(asc(questions.chapterId), asc(questions.id));
}
