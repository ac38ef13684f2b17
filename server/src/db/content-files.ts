import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';
import { z } from 'zod';
import { type RulesProfile, RulesProfileSchema } from '@ts/contract';

/**
 * Reads the reviewed course files under content/ (format: content/README.md) into plain,
 * validated objects, English and Spanish side by side. Loading them into the database is
 * seed.ts's job; the content tests read them through here too.
 */
export const CONTENT_DIR = fileURLToPath(new URL('../../../content', import.meta.url));

export type Language = 'en' | 'es';
export const LANGUAGES: readonly Language[] = ['en', 'es'];
export type Translated<T = string> = Record<Language, T>;

const Translated = z.object({ en: z.string().min(1), es: z.string().min(1) });

const CourtsFileSchema = z.object({
  counties: z.array(
    z.object({
      state: z.string().length(2),
      name: z.string().min(1),
      courts: z
        .array(
          z.object({
            name: z.string().min(1),
            email: z.email().optional(),
            /** The rules profile of content/rules/ the court's students take the course under (default: the spec's). */
            rulesProfile: z.string().optional(),
          }),
        )
        .min(1),
    }),
  ),
});
export type CourtsFile = z.infer<typeof CourtsFileSchema>;

const ChaptersFileSchema = z.object({
  chapters: z.array(z.object({ id: z.number().int(), title: Translated, description: Translated })),
});

const QuestionTextSchema = z.object({
  question: z.string().min(1),
  answers: z.array(z.string().min(1)).min(2).max(4),
  explanation: z.string().min(1),
});
const QuestionsFileSchema = z.array(
  z.object({
    key: z.string().min(1),
    module: z.string().min(1),
    correct: z.number().int().min(0),
    /** A phrase copied from the module's text that answers the question (decision 023: the content test finds it there). */
    source: Translated.optional(),
    en: QuestionTextSchema,
    es: QuestionTextSchema,
  }),
);

const VideoTextSchema = z.object({
  question: z.string().min(1),
  correctAnswer: z.string().min(1),
  incorrectAnswer: z.string().min(1),
});
const VideosFileSchema = z.array(
  z.object({
    key: z.string().min(1),
    module: z.string().min(1),
    path: z.string().min(1),
    en: VideoTextSchema,
    es: VideoTextSchema,
  }),
);

export interface TopicContent {
  key: string;
  position: number;
  title: Translated;
  markdown: Translated;
  html: Translated;
}

export interface ModuleContent {
  /** chN-slug: stable across edits of the text, so a reload never duplicates a module. */
  key: string;
  /** NN-slug: what a question's `module` names. */
  fileSlug: string;
  position: number;
  title: Translated;
  topics: TopicContent[];
}

export interface QuestionContent {
  key: string;
  /** The module (NN-slug) of `chapter` whose text answers the question. */
  module: string;
  /** The course chapter (1-4) the question tests: its own chapter, or for the final's bank the chapter whose folder holds it. */
  chapter: number;
  correct: number;
  source?: Translated;
  en: z.infer<typeof QuestionTextSchema>;
  es: z.infer<typeof QuestionTextSchema>;
}

export interface ChapterContent {
  id: number;
  title: Translated;
  description: Translated;
  modules: ModuleContent[];
  questions: QuestionContent[];
}

export interface VideoContent {
  key: string;
  /** The module's key (chN-slug). */
  module: string;
  path: string;
  en: z.infer<typeof VideoTextSchema>;
  es: z.infer<typeof VideoTextSchema>;
}

export interface CourseContent {
  /** The state editions (content/editions), each served to the students whose profile names it. */
  editions: EditionContent[];
  courts: CourtsFile;
  rulesProfiles: RulesProfile[];
  chapters: ChapterContent[];
  videos: VideoContent[];
}

function readJson<T>(schema: z.ZodType<T>, file: string): T {
  try {
    return schema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (error) {
    throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** Splits a module file into its front matter (simple `key: value` lines) and its Markdown body. */
/**
 * The course's length as California counts it (13 CCR 345.30): the words of the module and topic
 * text (titles and bodies), not quiz text, captions or text in images. A word is a run of
 * non-space characters holding a letter or a digit.
 */
export const COURSE_WORD_FLOOR = 42_500;

export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** The words of one module in a language: its title and every topic's title and text. */
export function moduleWords(module: ModuleContent, language: Language): number {
  return (
    countWords(module.title[language]) +
    module.topics.reduce(
      (sum, topic) => sum + countWords(topic.title[language]) + countWords(topic.markdown[language]),
      0,
    )
  );
}

/** The words of the course every student is served (chapters 1-4; the final has no text). */
export function courseWords(content: CourseContent, language: Language): number {
  return content.chapters
    .flatMap((chapter) => chapter.modules)
    .reduce((sum, module) => sum + moduleWords(module, language), 0);
}

export function parseModuleFile(text: string): { frontMatter: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error('a module file must start with --- front matter ---');
  const frontMatter: Record<string, string> = {};
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const separator = line.indexOf(':');
    if (separator > 0) frontMatter[line.slice(0, separator).trim()] = line.slice(separator + 1).trim();
  }
  return { frontMatter, body: match[2] ?? '' };
}

/** Each `## ` heading starts a topic: its title, and the Markdown up to the next one. */
export function splitTopics(body: string): { title: string; markdown: string }[] {
  const topics: { title: string; markdown: string }[] = [];
  for (const line of body.split(/\r?\n/)) {
    const heading = /^## (.+)$/.exec(line);
    if (heading?.[1]) topics.push({ title: heading[1].trim(), markdown: '' });
    else if (topics.length > 0) topics[topics.length - 1]!.markdown += `${line}\n`;
  }
  return topics.map((topic) => ({ ...topic, markdown: topic.markdown.trim() }));
}

/**
 * Markdown to the HTML a topic shows. The files hold no raw HTML (content/README.md), and the
 * browser sanitises whatever it renders as well. A blockquote is a "Did you know?" box.
 */
export function renderTopicHtml(markdown: string): string {
  return marked.parse(markdown, { async: false, gfm: true });
}

/** `root`: the folder of content/ holding chapter-N folders (the shared `course`, or `editions/<id>`); `keyPrefix` marks an edition's keys. */
function readModules(contentDir: string, chapterId: number, root = 'course', keyPrefix = ''): ModuleContent[] {
  const folder = path.join(contentDir, root, `chapter-${String(chapterId)}`);
  if (!fs.existsSync(folder)) return [];
  const slugs = [
    ...new Set(
      fs
        .readdirSync(folder)
        .map((name) => /^(\d{2}-[a-z0-9-]+)\.(en|es)\.md$/.exec(name)?.[1])
        .filter((slug): slug is string => slug !== undefined),
    ),
  ].sort();
  return slugs.map((fileSlug, index) => {
    const parsed = {} as Translated<{ title: string; topics: { title: string; markdown: string }[] }>;
    for (const language of LANGUAGES) {
      const file = path.join(folder, `${fileSlug}.${language}.md`);
      if (!fs.existsSync(file)) throw new Error(`${file} is missing: every module has an English and a Spanish file`);
      const { frontMatter, body } = parseModuleFile(fs.readFileSync(file, 'utf8'));
      if (!frontMatter.title) throw new Error(`${file} has no title`);
      parsed[language] = { title: frontMatter.title, topics: splitTopics(body) };
    }
    if (parsed.en.topics.length !== parsed.es.topics.length || parsed.en.topics.length === 0) {
      throw new Error(`${fileSlug}: the English and Spanish files must have the same topics (## headings)`);
    }
    const key = `${keyPrefix}ch${String(chapterId)}-${fileSlug.slice(3)}`;
    return {
      key,
      fileSlug,
      position: index + 1,
      title: { en: parsed.en.title, es: parsed.es.title },
      topics: parsed.en.topics.map((topic, t) => {
        const es = parsed.es.topics[t]!;
        return {
          key: `${key}-t${String(t + 1)}`,
          position: t + 1,
          title: { en: topic.title, es: es.title },
          markdown: { en: topic.markdown, es: es.markdown },
          html: { en: renderTopicHtml(topic.markdown), es: renderTopicHtml(es.markdown) },
        };
      }),
    };
  });
}

/** The final exam's chapter: its bank is the final-questions.json of each course chapter's folder. */
const FINAL_CHAPTER_ID = 6;

/** One bank file of a chapter folder (questions.json or final-questions.json), checked. */
function readQuestionsFile(contentDir: string, chapterId: number, name: string, root = 'course'): QuestionContent[] {
  const file = path.join(contentDir, root, `chapter-${String(chapterId)}`, name);
  if (!fs.existsSync(file)) return [];
  return readJson(QuestionsFileSchema, file).map((question) => {
    if (question.en.answers.length !== question.es.answers.length || question.correct >= question.en.answers.length) {
      throw new Error(`${file}: question ${question.key} has mismatched answers or correct index`);
    }
    return { ...question, chapter: chapterId };
  });
}

export function readCourseContent(contentDir = CONTENT_DIR): CourseContent {
  const courts = readJson(CourtsFileSchema, path.join(contentDir, 'courts.json'));
  const chaptersFile = readJson(ChaptersFileSchema, path.join(contentDir, 'course', 'chapters.json'));
  const courseChapterIds = chaptersFile.chapters.map((chapter) => chapter.id).filter((id) => id !== FINAL_CHAPTER_ID);
  const chapters = chaptersFile.chapters.map((chapter) => {
    // Decision 023: the final has its own bank, never used in chapter quizzes, kept beside the modules it tests.
    const questions =
      chapter.id === FINAL_CHAPTER_ID
        ? courseChapterIds.flatMap((id) => readQuestionsFile(contentDir, id, 'final-questions.json'))
        : readQuestionsFile(contentDir, chapter.id, 'questions.json');
    return { ...chapter, modules: readModules(contentDir, chapter.id), questions };
  });
  const videosFile = path.join(contentDir, 'course', 'videos.json');
  const videos = fs.existsSync(videosFile) ? readJson(VideosFileSchema, videosFile) : [];
  const rulesProfiles = readRulesProfiles(contentDir);
  for (const county of courts.counties) {
    for (const court of county.courts) {
      const profile = court.rulesProfile ?? 'default';
      if (!rulesProfiles.some((p) => p.id === profile)) {
        throw new Error(`courts.json: ${court.name} names an unknown rules profile "${profile}"`);
      }
    }
  }
  const editions = readEditions(contentDir);
  for (const profile of rulesProfiles) {
    if (profile.edition !== null && !editions.some((edition) => edition.id === profile.edition)) {
      throw new Error(`content/rules/${profile.id}.json names an unknown edition "${profile.edition}"`);
    }
  }
  return { courts, rulesProfiles, chapters, videos, editions };
}

const EditionFileSchema = z.object({
  id: z.string().regex(/^[a-z]{2,10}$/),
  state: z.string().regex(/^[A-Z]{2}$/),
  name: z.object({ en: z.string().min(1), es: z.string().min(1) }),
  /** Every topic the state names, the rule that names it and the modules (keys) that teach it: the crosswalk. */
  topics: z.array(z.object({ topic: z.string().min(1), rule: z.string().min(1), modules: z.array(z.string()).min(1) })),
});

/** A state edition (content/editions/<id>/): the state's own modules and questions, added to chapters of the shared course. */
export interface EditionContent extends z.infer<typeof EditionFileSchema> {
  chapters: { id: number; modules: ModuleContent[]; questions: QuestionContent[]; finalQuestions: QuestionContent[] }[];
}

/** Every state edition of content/editions (decision 051): loaded with the course, served to the students whose profile names it. */
export function readEditions(contentDir = CONTENT_DIR): EditionContent[] {
  const dir = path.join(contentDir, 'editions');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => fs.existsSync(path.join(dir, name, 'edition.json')))
    .sort()
    .map((name) => {
      const edition = readJson(EditionFileSchema, path.join(dir, name, 'edition.json'));
      if (edition.id !== name) throw new Error(`${path.join(dir, name)}: edition.json's id must match the folder`);
      const root = path.join('editions', name);
      const chapters = [1, 2, 3, 4].map((id) => ({
        id,
        modules: readModules(contentDir, id, root, `${name}-`),
        questions: readQuestionsFile(contentDir, id, 'questions.json', root),
        finalQuestions: readQuestionsFile(contentDir, id, 'final-questions.json', root),
      }));
      return { ...edition, chapters: chapters.filter((chapter) => chapter.modules.length > 0) };
    });
}

/** content/rules/<id>.json: the rules profiles (decision 012); `default` must exist. */
export function readRulesProfiles(contentDir = CONTENT_DIR): RulesProfile[] {
  const dir = path.join(contentDir, 'rules');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
  const profiles = files.sort().map((name) => {
    const profile = readJson(RulesProfileSchema, path.join(dir, name));
    if (`${profile.id}.json` !== name) throw new Error(`${path.join(dir, name)}: its id must match the file name`);
    return profile;
  });
  if (!profiles.some((profile) => profile.id === 'default')) throw new Error(`${dir}: default.json is missing`);
  return profiles;
}
