import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_SOURCES } from '@ts/contract';
import {
  CONTENT_DIR,
  COURSE_WORD_FLOOR,
  countWords,
  courseWords,
  LANGUAGES,
  readCourseContent,
  readRulesProfiles,
} from './content-files.ts';

/** Decision 008: the course as reviewed files, checked for completeness in both languages. */
const content = readCourseContent();
const courseChapters = content.chapters.filter((chapter) => chapter.id !== 6);

const words = countWords;

describe('the course content', () => {
  it('has chapters 1-4 and the final exam (6), titled in English and Spanish', () => {
    expect(content.chapters.map((chapter) => chapter.id)).toEqual([1, 2, 3, 4, 6]);
    for (const chapter of content.chapters) {
      expect(chapter.title.en).not.toBe('');
      expect(chapter.title.es).not.toBe(chapter.title.en);
    }
  });

  it('gives every chapter 3-12 modules of 2-4 topics each', () => {
    for (const chapter of courseChapters) {
      expect(chapter.modules.length, `chapter ${String(chapter.id)}`).toBeGreaterThanOrEqual(3);
      expect(chapter.modules.length).toBeLessThanOrEqual(12);
      for (const module of chapter.modules) {
        expect(module.topics.length, module.key).toBeGreaterThanOrEqual(2);
        expect(module.topics.length, module.key).toBeLessThanOrEqual(4);
      }
    }
  });

  // California counts at least 42,500 words of course text (13 CCR 345.30; ../shared/STATE-RULES.md):
  // module and topic text, not quiz text, captions or text in images.
  it.each(LANGUAGES)('holds at least 42,500 words of course text in %s', (language) => {
    expect(courseWords(content, language)).toBeGreaterThanOrEqual(COURSE_WORD_FLOOR);
  });

  it('ends every module with a Key points close in both languages', () => {
    for (const module of courseChapters.flatMap((chapter) => chapter.modules)) {
      const last = module.topics.at(-1)!;
      expect(last.markdown.en, module.key).toMatch(/^### Key points$/m);
      expect(last.markdown.es, module.key).toMatch(/^### Puntos clave$/m);
    }
  });

  it('pairs every English topic with a Spanish twin that is not a copy', () => {
    for (const topic of courseChapters.flatMap((chapter) => chapter.modules.flatMap((module) => module.topics))) {
      expect(words(topic.markdown.es), topic.key).toBeGreaterThan(words(topic.markdown.en) * 0.7);
      expect(topic.markdown.es).not.toBe(topic.markdown.en);
    }
  });

  // Decision 050: the sign-in carries the licence number and the last name, so asking them proves nothing.
  it('has no rules profile with identity checks ask what the sign-in carries', () => {
    for (const profile of readRulesProfiles().filter((candidate) => candidate.identityChecks.enabled)) {
      expect(
        profile.identityChecks.sources.filter((source) => SIGN_IN_SOURCES.includes(source)),
        profile.id,
      ).toEqual([]);
    }
  });

  it('keeps the files free of raw HTML', () => {
    for (const topic of courseChapters.flatMap((chapter) => chapter.modules.flatMap((module) => module.topics))) {
      for (const language of LANGUAGES) expect(topic.markdown[language], topic.key).not.toMatch(/<[a-z!/]/i);
    }
  });

  // Decision 049: ten final attempts of 20 meet only questions the student was never shown.
  it('gives the final exam its own bank of at least 300 questions, at least 70 from each chapter', () => {
    const finalBank = content.chapters.find((chapter) => chapter.id === 6)?.questions ?? [];
    expect(finalBank.length).toBeGreaterThanOrEqual(300);
    for (const chapter of courseChapters) {
      expect(finalBank.filter((question) => question.chapter === chapter.id).length).toBeGreaterThanOrEqual(70);
    }
  });

  it('gives every chapter a bank of at least 30 questions, 60 or more for the final to draw from', () => {
    for (const chapter of courseChapters) {
      expect(chapter.questions.length, `chapter ${String(chapter.id)}`).toBeGreaterThanOrEqual(30);
    }
    const finalPool = courseChapters.reduce((sum, chapter) => sum + chapter.questions.length, 0);
    expect(finalPool).toBeGreaterThanOrEqual(60);
  });

  it('gives every question 3-4 answers, exactly one correct, an explanation, a Spanish twin and a real module', () => {
    for (const chapter of courseChapters) {
      const slugs = new Set(chapter.modules.map((module) => module.fileSlug));
      const keys = new Set<string>();
      for (const question of chapter.questions) {
        expect(keys.has(question.key), `duplicate ${question.key}`).toBe(false);
        keys.add(question.key);
        expect(slugs.has(question.module), `${question.key} names ${question.module}`).toBe(true);
        for (const language of LANGUAGES) {
          const text = question[language];
          expect(text.answers.length, question.key).toBeGreaterThanOrEqual(3);
          expect(text.answers.length, question.key).toBeLessThanOrEqual(4);
          expect(new Set(text.answers).size, `${question.key} repeats an answer`).toBe(text.answers.length);
          expect(text.explanation.length, question.key).toBeGreaterThan(10);
        }
        expect(question.es.answers.length).toBe(question.en.answers.length);
        expect(question.correct).toBeLessThan(question.en.answers.length);
      }
    }
  });

  it('spreads each bank across the chapter: every module is asked about', () => {
    for (const chapter of courseChapters) {
      for (const module of chapter.modules) {
        const asked = chapter.questions.filter((question) => question.module === module.fileSlug).length;
        expect(asked, module.key).toBeGreaterThanOrEqual(5);
      }
    }
  });

  it('has an interactive video in every chapter, each with its clips and captions on disk', () => {
    const modulesWithVideo = new Set(content.videos.map((video) => video.module));
    for (const chapter of courseChapters) {
      expect(
        chapter.modules.some((module) => modulesWithVideo.has(module.key)),
        `chapter ${String(chapter.id)}`,
      ).toBe(true);
    }
    for (const video of content.videos) {
      for (const clip of ['start', 'correct', 'incorrect']) {
        const file = path.join(CONTENT_DIR, 'videos', video.path, `${clip}.mp4`);
        expect(fs.existsSync(file), file).toBe(true);
        expect(fs.statSync(file).size, file).toBeLessThan(500 * 1024);
        for (const language of LANGUAGES) {
          const captions = path.join(CONTENT_DIR, 'videos', video.path, `${clip}.${language}.vtt`);
          expect(fs.readFileSync(captions, 'utf8').startsWith('WEBVTT'), captions).toBe(true);
        }
      }
    }
  });
});
