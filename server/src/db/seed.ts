import fs from 'node:fs';
import path from 'node:path';
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

const TranslatedSchema = z.object({ en: z.string().min(1), es: z.string().min(1) });

const ChaptersFileSchema = z.object({
  chapters: z.array(z.object({ id: z.number().int(), title: TranslatedSchema, description: TranslatedSchema })),
});

export interface ModuleFile {
  /** chN-slug: stable across edits of the text, so a reload never duplicates a module. */
  key: string;
  chapterId: number;
  position: number;
  title: string;
  body: string;
}

/** Splits a module file into its front matter (simple `key: value` lines) and its Markdown body. */
export function parseModuleFile(text: string): { frontMatter: Record<string, string>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error('a module file must start with --- front matter ---');
  const frontMatter: Record<string, string> = {};
  for (const line of (match[1] ?? '').split('\n')) {
    const separator = line.indexOf(':');
    if (separator > 0) frontMatter[line.slice(0, separator).trim()] = line.slice(separator + 1).trim();
  }
  return { frontMatter, body: match[2] ?? '' };
}

/** The module files of one chapter in one language, in the order of their NN- prefixes. */
export function readModuleFiles(contentDir: string, chapterId: number, language: 'en' | 'es'): ModuleFile[] {
  const folder = path.join(contentDir, 'course', `chapter-${String(chapterId)}`);
  if (!fs.existsSync(folder)) return [];
  const suffix = `.${language}.md`;
  return fs
    .readdirSync(folder)
    .filter((name) => /^\d{2}-[a-z0-9-]+\.(en|es)\.md$/.test(name) && name.endsWith(suffix))
    .sort()
    .map((name, index) => {
      const { frontMatter, body } = parseModuleFile(fs.readFileSync(path.join(folder, name), 'utf8'));
      const title = frontMatter.title;
      if (!title) throw new Error(`${name} has no title`);
      const slug = name.slice(3, -suffix.length);
      return { key: `ch${String(chapterId)}-${slug}`, chapterId, position: index + 1, title, body };
    });
}

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
          title: chapter.title.en,
          description: chapter.description.en,
          position: index + 1,
        })),
      )
      .onConflictDoNothing();
    const moduleRows = chaptersFile.chapters.flatMap((chapter) =>
      readModuleFiles(contentDir, chapter.id, 'en').map((module) => ({
        contentKey: module.key,
        chapterId: chapter.id,
        title: module.title,
        position: module.position,
      })),
    );
    if (moduleRows.length > 0) await tx.insert(modules).values(moduleRows).onConflictDoNothing();
  });
}
