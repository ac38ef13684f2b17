import { FINAL_EXAM_CHAPTER } from '@ts/contract';
import { asc } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';
import { heardContentVersion } from './content-version.ts';
import { answers, chapters, contentVersion, modules, questions, topics, videos } from './schema.ts';
import { createCache } from '../platform/caches.ts';

/**
 * The course content in memory (decision 019). Chapters, modules, topics, videos and
 * the question banks change only when the content files are loaded or an admin edits a question,
 * yet every page of the course reads them. Each instance keeps one copy per database, tagged with
 * the content version it was read at; a trigger raises the version on every write to those
 * tables (migration 0008) and announces it to every connection (content-version.ts, decision 038),
 * so a request started after an edit was acknowledged never gets content older than the edit,
 * whichever instance made it.
 */

export type ChapterRow = typeof chapters.$inferSelect;
export type ModuleRow = typeof modules.$inferSelect;
export type TopicRow = typeof topics.$inferSelect;
export type VideoRow = typeof videos.$inferSelect;
export type QuestionRow = typeof questions.$inferSelect;
export type AnswerRow = typeof answers.$inferSelect;
export interface BankQuestion {
  question: QuestionRow;
  /** In their order on the page. */
  answers: AnswerRow[];
}

export interface CourseContent {
  version: number;
  /** In course order. */
  chapters: ChapterRow[];
  /** In course order (chapter, then position). */
  modules: ModuleRow[];
  moduleById: ReadonlyMap<number, ModuleRow>;
  topicsByModule: ReadonlyMap<number, TopicRow[]>;
  videoByModule: ReadonlyMap<number, VideoRow>;
  /** Every question, retired ones included (past attempts still name them). */
  questionById: ReadonlyMap<number, BankQuestion>;
  /** A chapter's active questions of the shared course, by id: what a draw picks from. */
  activeBankByChapter: ReadonlyMap<number, number[]>;
  /** The final exam's own active bank (decision 023), by the course chapter each question tests. */
  activeFinalBankByChapter: ReadonlyMap<number, number[]>;
  /** A state edition's active questions, the same two ways, by edition id. */
  editionBanks: ReadonlyMap<string, { chapter: ReadonlyMap<number, number[]>; final: ReadonlyMap<number, number[]> }>;
}

/** Whether a module is served to a student of this edition (null: the shared course alone). */
export function isModuleServed(module: ModuleRow, edition: string | null): boolean {
  return module.edition === null || module.edition === edition;
}

/** A chapter's modules as a student of this edition is served them, in course order. */
export function modulesOfChapter(content: CourseContent, chapterId: number, edition: string | null): ModuleRow[] {
  return content.modules.filter((module) => module.chapterId === chapterId && isModuleServed(module, edition));
}

/** A chapter quiz's active bank for a student of this edition: the shared questions and the edition's own. */
export function chapterBank(content: CourseContent, chapterId: number, edition: string | null): number[] {
  const own = edition === null ? [] : (content.editionBanks.get(edition)?.chapter.get(chapterId) ?? []);
  return [...(content.activeBankByChapter.get(chapterId) ?? []), ...own];
}

/** The final's active bank per course chapter for a student of this edition (shared and the edition's own). */
export function finalBanks(content: CourseContent, edition: string | null): number[][] {
  const own = edition === null ? undefined : content.editionBanks.get(edition)?.final;
  return [...content.activeFinalBankByChapter.entries()].map(([chapter, bank]) => [
    ...bank,
    ...(own?.get(chapter) ?? []),
  ]);
}

/**
 * The one copy of the content per database (platform/caches.ts): the copy being read or kept, and
 * the newest version heard when its read began.
 */
const copies = createCache<'course', { version: number; content: Promise<CourseContent> }>(1);

/**
 * The content as of the newest version heard (read from the database the first time, and again
 * after a version change; one read at a time however many requests ask). Takes the app's
 * database, never a transaction: a copy per transaction would read everything each time.
 */
export async function getCourseContent(db: Db): Promise<CourseContent> {
  if (db instanceof PgTransaction) throw new Error('getCourseContent takes the database, not a transaction');
  // The version is heard per database client (the pool, the PGlite instance), which drizzle keeps.
  const heard = heardContentVersion(databaseClient(db));
  let copy = copies.get(db, 'course');
  if (!copy || copy.version < heard) {
    const content = readCourseContent(db);
    copy = { version: heard, content };
    copies.set(db, 'course', copy);
    // A failed read is not kept: the next call tries again.
    content.catch(() => {
      if (copies.get(db, 'course')?.content === content) copies.delete(db, 'course');
    });
  }
  return copy.content;
}

/** The driver's client behind a drizzle database (its `$client`), whose connections hear the version. */
function databaseClient(db: Db): object {
  const client: unknown = Reflect.get(db, '$client');
  // Without it no version would ever be heard, and the copy never read again: fail loudly instead.
  if (typeof client !== 'object' || client === null) throw new Error('a database without its driver client');
  return client;
}

async function readCourseContent(db: Db): Promise<CourseContent> {
  // One snapshot: the version and the rows it stands for.
  const read = await db.transaction(
    async (tx) => ({
      version: (await tx.select({ version: contentVersion.version }).from(contentVersion))[0]?.version ?? 0,
      chapters: await tx.select().from(chapters).orderBy(asc(chapters.position)),
      modules: await tx.select().from(modules).orderBy(asc(modules.position), asc(modules.id)),
      topics: await tx.select().from(topics).orderBy(asc(topics.position), asc(topics.id)),
      videos: await tx.select().from(videos),
      questions: await tx.select().from(questions).orderBy(asc(questions.id)),
      answers: await tx.select().from(answers).orderBy(asc(answers.position), asc(answers.id)),
    }),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const chapterOrder = new Map(read.chapters.map((chapter, index) => [chapter.id, index]));
  const courseOrder = [...read.modules].sort(
    (a, b) => (chapterOrder.get(a.chapterId) ?? 0) - (chapterOrder.get(b.chapterId) ?? 0) || a.position - b.position,
  );
  const answersByQuestion = groupBy(read.answers, (answer) => answer.questionId);
  const activeBankByChapter = new Map<number, number[]>();
  const activeFinalBankByChapter = new Map<number, number[]>();
  const editionBanks = new Map<string, { chapter: Map<number, number[]>; final: Map<number, number[]> }>();
  for (const question of read.questions) {
    if (!question.active) continue;
    const isFinal = question.chapterId === FINAL_EXAM_CHAPTER;
    let shelf = { chapter: activeBankByChapter, final: activeFinalBankByChapter };
    if (question.edition !== null) {
      shelf = editionBanks.get(question.edition) ?? { chapter: new Map(), final: new Map() };
      editionBanks.set(question.edition, shelf);
    }
    const banks = isFinal ? shelf.final : shelf.chapter;
    const chapter = isFinal ? testedChapter(question.moduleKey) : question.chapterId;
    const bank = banks.get(chapter) ?? [];
    bank.push(question.id);
    banks.set(chapter, bank);
  }
  return {
    version: read.version,
    chapters: read.chapters,
    modules: courseOrder,
    moduleById: new Map(read.modules.map((module) => [module.id, module])),
    topicsByModule: groupBy(read.topics, (topic) => topic.moduleId),
    videoByModule: new Map(read.videos.map((video) => [video.moduleId, video])),
    questionById: new Map(
      read.questions.map((question) => [question.id, { question, answers: answersByQuestion.get(question.id) ?? [] }]),
    ),
    activeBankByChapter,
    activeFinalBankByChapter,
    editionBanks,
  };
}

/** The course chapter a final-exam question tests, from its module's key ([edition-]chN-slug); 0 when it names none. */
function testedChapter(moduleKey: string | null): number {
  return Number(/^(?:[a-z]+-)?ch(\d+)-/.exec(moduleKey ?? '')?.[1] ?? 0);
}

function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}
