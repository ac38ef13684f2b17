import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import { FINAL_EXAM_CHAPTER } from '@ts/contract';
import type { Db } from './client.ts';
import { CONTENT_DIR, readCourseContent } from './content-files.ts';
import { answers, chapters, counties, courts, modules, questions, rulesProfiles, topics, videos } from './schema.ts';

/** An edition's module sits after the shared modules of its chapter (their positions stay below this). */
const EDITION_POSITION_OFFSET = 100;

export { CONTENT_DIR };

/** On a conflict, fill a column only where it is still empty: an admin's edit is never overwritten. */
const fillIfEmpty = (table: string, column: string) => sql.raw(`coalesce(${table}.${column}, excluded.${column})`);

/**
 * Loads the reviewed files under content/ into the database. Idempotent: what is already
 * there, and any edit an admin made to it, is left alone; only what is missing is added.
 */
export async function loadContent(db: Db, contentDir = CONTENT_DIR): Promise<void> {
  const content = readCourseContent(contentDir);

  await db.transaction(async (tx) => {
    // A profile version, once loaded, never changes: a reviewed change must raise the version.
    for (const profile of content.rulesProfiles) {
      await tx
        .insert(rulesProfiles)
        .values({ id: profile.id, version: profile.version, definition: profile })
        .onConflictDoNothing();
    }
    const storedProfiles = await tx.select().from(rulesProfiles);
    for (const profile of content.rulesProfiles) {
      const stored = storedProfiles.find((row) => row.id === profile.id && row.version === profile.version);
      if (stored && !isDeepStrictEqual(stored.definition, profile)) {
        throw new Error(
          `content/rules/${profile.id}.json changed without a new version (version ${String(profile.version)} is already loaded)`,
        );
      }
    }

    for (const county of content.courts.counties) {
      await tx.insert(counties).values({ state: county.state, name: county.name }).onConflictDoNothing();
    }
    const countyRows = await tx.select().from(counties);
    for (const county of content.courts.counties) {
      const countyId = countyRows.find((row) => row.state === county.state && row.name === county.name)?.id;
      if (countyId === undefined) throw new Error(`county ${county.name} was not saved`);
      await tx
        .insert(courts)
        .values(
          county.courts.map((court) => ({
            countyId,
            name: court.name,
            email: court.email ?? null,
            rulesProfileId: court.rulesProfile ?? 'default',
          })),
        )
        // The reviewed file decides each court's rules profile.
        .onConflictDoUpdate({ target: courts.name, set: { rulesProfileId: sql.raw('excluded.rules_profile_id') } });
    }

    await tx
      .insert(chapters)
      .values(
        content.chapters.map((chapter, index) => ({
          id: chapter.id,
          title: chapter.title.en,
          description: chapter.description.en,
          titleEs: chapter.title.es,
          descriptionEs: chapter.description.es,
          position: index + 1,
        })),
      )
      .onConflictDoUpdate({
        target: chapters.id,
        set: { titleEs: fillIfEmpty('chapters', 'title_es'), descriptionEs: fillIfEmpty('chapters', 'description_es') },
      });

    const moduleIds = new Map<string, number>();
    // The shared chapters, then each state edition's modules and questions in the chapters they join.
    const parts = [
      ...content.chapters.map((chapter) => ({ ...chapter, edition: null as string | null })),
      ...content.editions.flatMap((edition) =>
        edition.chapters.flatMap((chapter) => [
          { id: chapter.id, modules: chapter.modules, questions: chapter.questions, edition: edition.id },
          { id: FINAL_EXAM_CHAPTER, modules: [], questions: chapter.finalQuestions, edition: edition.id },
        ]),
      ),
    ];
    for (const chapter of parts) {
      for (const module of chapter.modules) {
        const [row] = await tx
          .insert(modules)
          .values({
            contentKey: module.key,
            chapterId: chapter.id,
            title: module.title.en,
            titleEs: module.title.es,
            // An edition's modules come after the shared ones of their chapter.
            position: chapter.edition === null ? module.position : EDITION_POSITION_OFFSET + module.position,
            edition: chapter.edition,
          })
          .onConflictDoUpdate({ target: modules.contentKey, set: { titleEs: fillIfEmpty('modules', 'title_es') } })
          .returning({ id: modules.id });
        if (!row) throw new Error(`module ${module.key} was not saved`);
        moduleIds.set(module.key, row.id);
        if (module.topics.length === 0) continue;
        await tx
          .insert(topics)
          .values(
            module.topics.map((topic) => ({
              contentKey: topic.key,
              moduleId: row.id,
              position: topic.position,
              title: topic.title.en,
              titleEs: topic.title.es,
              htmlContent: topic.html.en,
              htmlContentEs: topic.html.es,
            })),
          )
          .onConflictDoNothing();
      }

      for (const question of chapter.questions) {
        const [inserted] = await tx
          .insert(questions)
          .values({
            contentKey: question.key,
            chapterId: chapter.id,
            moduleKey: `${chapter.edition === null ? '' : `${chapter.edition}-`}ch${String(question.chapter)}-${question.module.slice(3)}`,
            edition: chapter.edition,
            question: question.en.question,
            questionEs: question.es.question,
            explanation: question.en.explanation,
            explanationEs: question.es.explanation,
          })
          .onConflictDoNothing()
          .returning({ id: questions.id });
        // A question already loaded keeps its answers as they are (an admin may have edited them).
        if (!inserted) continue;
        await tx.insert(answers).values(
          question.en.answers.map((content, index) => ({
            questionId: inserted.id,
            position: index + 1,
            content,
            contentEs: question.es.answers[index] ?? null,
            isCorrect: index === question.correct,
          })),
        );
      }
    }

    for (const video of content.videos) {
      const moduleId = moduleIds.get(video.module);
      if (moduleId === undefined) throw new Error(`video ${video.key} names an unknown module ${video.module}`);
      await tx
        .insert(videos)
        .values({
          contentKey: video.key,
          moduleId,
          path: video.path,
          question: video.en.question,
          correctAnswer: video.en.correctAnswer,
          incorrectAnswer: video.en.incorrectAnswer,
          questionEs: video.es.question,
          correctAnswerEs: video.es.correctAnswer,
          incorrectAnswerEs: video.es.incorrectAnswer,
        })
        .onConflictDoNothing();
    }
  });
}
