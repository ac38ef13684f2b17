import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

/** Spec 3: chapters 1-4, and 6 for the final exam. */
export const ChapterSchema = z.object({ id: z.number().int(), title: z.string(), description: z.string() });
export type Chapter = z.infer<typeof ChapterSchema>;

export const listChapters = defineEndpoint({
  method: 'GET',
  path: '/api/content/chapters',
  response: z.array(ChapterSchema),
});
