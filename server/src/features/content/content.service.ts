import { asc } from 'drizzle-orm';
import type { Chapter, Module, Topic, Video } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { questions } from '../../db/schema.ts';
import { getCourseContent, isModuleServed, type ModuleRow, modulesOfChapter } from '../../db/course-content.ts';
import { getStudentProgress } from '../progress/progress.queries.ts';
import { notFound } from '../../plugins/errors.ts';
import { type Language, pick } from '../../plugins/language.ts';
import { createDerivedCache } from '../../platform/caches.ts';

// What a student reads again and again, kept with the content or progress copy it came from.
const keptChapters = createDerivedCache<Chapter[]>();
const keptModules = createDerivedCache<Module[]>();
const keptTopics = createDerivedCache<Topic[]>();

export async function listChapters(db: Db, language: Language): Promise<Chapter[]> {
  const content = await getCourseContent(db);
  return keptChapters(content, language, () =>
    content.chapters.map((row) => ({
      id: row.id,
      title: pick(language, row.title, row.titleEs),
      description: pick(language, row.description, row.descriptionEs),
    })),
  );
}

/** The student, the progress version their session read (getStudentProgress) and their state edition. */
type ProgressOf = { studentId: number; progressVersion: number; edition: string | null };

/** Modules with whether this student completed each (progress owns the completions). */
function presentModules(completed: ReadonlySet<number>, language: Language, rows: ModuleRow[]): Module[] {
  return rows.map((row) => ({
    id: row.id,
    chapter_id: row.chapterId,
    title: pick(language, row.title, row.titleEs),
    complete: completed.has(row.id),
    href: `/content/${String(row.chapterId)}/${String(row.id)}`,
  }));
}

/** Spec 3 Module: id, chapter_id, title, complete (for this student), href. */
export async function listModulesForStudent(
  db: Db,
  input: { chapterId: number; student: ProgressOf; language: Language },
): Promise<Module[]> {
  const content = await getCourseContent(db);
  const progress = await getStudentProgress(db, input.student);
  // Kept with this student's progress copy, which a new completion replaces (the edition is the student's own).
  return keptModules(progress, `${String(content.version)} ${String(input.chapterId)} ${input.language}`, () =>
    presentModules(
      progress.moduleIds,
      input.language,
      modulesOfChapter(content, input.chapterId, input.student.edition),
    ),
  );
}

export async function getModuleForStudent(
  db: Db,
  input: { moduleId: number; student: ProgressOf; language: Language },
): Promise<Module> {
  const row = (await getCourseContent(db)).moduleById.get(input.moduleId);
  // Another state's edition module is not in this student's course (decision 051).
  if (!row || !isModuleServed(row, input.student.edition)) throw notFound('No such module.');
  const { moduleIds } = await getStudentProgress(db, input.student);
  const [module] = presentModules(moduleIds, input.language, [row]);
  if (!module) throw notFound('No such module.');
  return module;
}

/** 404 for another state's edition module (decision 051); a module that does not exist has no topics either. */
export async function assertModuleServed(db: Db, moduleId: number, edition: string | null): Promise<void> {
  const module = (await getCourseContent(db)).moduleById.get(moduleId);
  if (module && !isModuleServed(module, edition)) throw notFound('No such module.');
}

export async function listTopics(db: Db, moduleId: number, language: Language): Promise<Topic[]> {
  const content = await getCourseContent(db);
  return keptTopics(content, `${String(moduleId)} ${language}`, () =>
    (content.topicsByModule.get(moduleId) ?? []).map((row) => ({
      id: row.id,
      title: pick(language, row.title, row.titleEs),
      html_content: pick(language, row.htmlContent, row.htmlContentEs),
    })),
  );
}

export async function findVideo(db: Db, moduleId: number, language: Language): Promise<Video | null> {
  const row = (await getCourseContent(db)).videoByModule.get(moduleId);
  if (!row) return null;
  return {
    path: row.path,
    question: pick(language, row.question, row.questionEs),
    correctAnswer: pick(language, row.correctAnswer, row.correctAnswerEs),
    incorrectAnswer: pick(language, row.incorrectAnswer, row.incorrectAnswerEs),
  };
}

/** The question banks for staff (Modify Questions), in English as they are edited. */
export async function listQuestions(
  db: Db,
): Promise<{ id: number; chapter_id: number; question: string; edition: string | null }[]> {
  return db
    .select({
      id: questions.id,
      chapter_id: questions.chapterId,
      question: questions.question,
      edition: questions.edition,
    })
    .from(questions)
    .orderBy(asc(questions.chapterId), asc(questions.id));
}
