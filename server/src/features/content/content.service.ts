import { asc } from 'drizzle-orm';
import type { Chapter } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { chapters } from '../../db/schema.ts';

export async function listChapters(db: Db): Promise<Chapter[]> {
  return db
    .select({ id: chapters.id, title: chapters.title, description: chapters.description })
    .from(chapters)
    .orderBy(asc(chapters.position));
}
