import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Db } from './client.ts';
import { chapters, counties, courts, modules } from './schema.ts';

export const CONTENT_DIR = fileURLToPath(new URL('../../../content', import.meta.url));

const CourtsFileSchema = z.object({
  counties: z.array(
    z.object({
      state: z.string().length(2),
      name: z.string().min(1),
      courts: z.array(z.object({ name: z.string().min(1), email: z.email().optional() })).min(1),
    }),
  ),
});

const ChaptersFileSchema = z.object({
  chapters: z.array(
    z.object({
      id: z.number().int(),
      title: z.string().min(1),
      description: z.string().min(1),
      modules: z.array(z.object({ key: z.string().min(1), title: z.string().min(1) })),
    }),
  ),
});

function readJson<T>(schema: z.ZodType<T>, file: string): T {
  return schema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
}

/**
 * Loads the reviewed files under content/ into the database. Idempotent: what is already
 * there (and any edit an admin made to it) is left alone; only what is missing is added.
 */
export async function loadContent(db: Db, contentDir = CONTENT_DIR): Promise<void> {
  const courtsFile = readJson(CourtsFileSchema, `${contentDir}/courts.json`);
  const chaptersFile = readJson(ChaptersFileSchema, `${contentDir}/course/chapters.json`);

  await db.transaction(async (tx) => {
    for (const county of courtsFile.counties) {
      await tx.insert(counties).values({ state: county.state, name: county.name }).onConflictDoNothing();
    }
    const countyRows = await tx.select().from(counties);
    for (const county of courtsFile.counties) {
      const countyId = countyRows.find((row) => row.state === county.state && row.name === county.name)?.id;
      if (countyId === undefined) throw new Error(`county ${county.name} was not saved`);
      await tx
        .insert(courts)
        .values(county.courts.map((court) => ({ countyId, name: court.name, email: court.email ?? null })))
        .onConflictDoNothing();
    }

    await tx
      .insert(chapters)
      .values(
        chaptersFile.chapters.map((chapter, index) => ({
          id: chapter.id,
          title: chapter.title,
          description: chapter.description,
          position: index + 1,
        })),
      )
      .onConflictDoNothing();
    const moduleRows = chaptersFile.chapters.flatMap((chapter) =>
      chapter.modules.map((module, index) => ({
        contentKey: module.key,
        chapterId: chapter.id,
        title: module.title,
        position: index + 1,
      })),
    );
    if (moduleRows.length > 0) await tx.insert(modules).values(moduleRows).onConflictDoNothing();
  });
}
