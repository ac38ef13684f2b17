import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { IdParam } from './primitives.ts';

/**
 * Course content (spec 3, 7). Texts come in the language the browser asks for with
 * Accept-Language (en or es); progress never depends on the language.
 */
export const ChapterSchema = z.object({ id: z.number().int(), title: z.string(), description: z.string() });
export type Chapter = z.infer<typeof ChapterSchema>;

export const ModuleSchema = z.object({
  id: z.number().int(),
  chapter_id: z.number().int(),
  title: z.string(),
  complete: z.boolean(),
  href: z.string(),
});
export type Module = z.infer<typeof ModuleSchema>;

export const TopicSchema = z.object({ id: z.number().int(), title: z.string(), html_content: z.string() });
export type Topic = z.infer<typeof TopicSchema>;

export const VideoSchema = z.object({
  path: z.string(),
  question: z.string(),
  correctAnswer: z.string(),
  incorrectAnswer: z.string(),
});
export type Video = z.infer<typeof VideoSchema>;

const ModuleIdParams = z.object({ moduleId: IdParam });
const ChapterIdParams = z.object({ chapterId: IdParam });

const listChapters = defineEndpoint({
  method: 'GET',
  path: '/api/content/chapters',
  response: z.array(ChapterSchema),
});

/** Staff: every question of the banks (the Modify Questions list). */
const listQuestions = defineEndpoint({
  method: 'GET',
  path: '/api/content/questions',
  staffRoles: ['super_admin', 'admin'],
  response: z.array(
    z.object({
      id: z.number().int(),
      chapter_id: z.number().int(),
      question: z.string(),
      /** The state edition the question belongs to (decision 051), null for the shared course's. */
      edition: z.string().nullable(),
    }),
  ),
});

const getModule = defineEndpoint({
  method: 'GET',
  path: '/api/content/module/:moduleId',
  params: ModuleIdParams,
  errors: ['NOT_FOUND'],
  response: ModuleSchema,
});

const listModules = defineEndpoint({
  method: 'GET',
  path: '/api/content/modules/:chapterId',
  params: ChapterIdParams,
  // Spec 7 sends userId; the server answers for the signed-in student only.
  query: z.object({ userId: IdParam.optional() }),
  response: z.array(ModuleSchema),
});

const listTopics = defineEndpoint({
  method: 'GET',
  path: '/api/content/topics/:moduleId',
  params: ModuleIdParams,
  errors: ['NOT_FOUND'],
  response: z.array(TopicSchema),
});

/** The module's interactive video question, or null when it has none. */
const getVideo = defineEndpoint({
  method: 'GET',
  path: '/api/content/video/:moduleId',
  params: ModuleIdParams,
  errors: ['NOT_FOUND'],
  response: VideoSchema.nullable(),
});

/** The calls of the server's content feature. */
export const contentApi = {
  chapters: listChapters,
  questions: listQuestions,
  module: getModule,
  modules: listModules,
  topics: listTopics,
  video: getVideo,
} as const;
