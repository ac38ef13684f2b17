import { type CourseContent, type EditionContent, type ModuleContent, moduleWords } from './content-files.ts';

/** Words a student reads in a minute, for the crosswalk's reading times (a common adult figure). */
const WORDS_PER_MINUTE = 200;

/** A statute or rule section cited in a module's English text ("Transportation Code 545.157", "Vehicle Code 22350"). */
const CITATION =
  /\b(?:(?:Transportation|Penal|Vehicle|Education|Government|Alcoholic Beverage) Code|F\.S\.|Florida Statutes|RCW|VTL|TAC)\s+\d[\d.()a-z-]*/g;

function citationsOf(module: ModuleContent): string[] {
  const text = module.topics.map((topic) => topic.markdown.en).join('\n');
  return [...new Set([...text.matchAll(CITATION)].map((match) => match[0].replace(/[.)]+$/, '')))].sort();
}

/**
 * docs/editions/<id>.md, a regulator's crosswalk (decision 051): every topic the state names, the
 * module that teaches it with its words and reading minutes, and the rule it answers; then every
 * module the edition adds, with the sections it cites. Built from the content, so a test can hold
 * the committed file to it (`npm run editions:crosswalk` writes it).
 */
export function buildCrosswalk(content: CourseContent, edition: EditionContent): string {
  const served = [
    ...content.chapters.flatMap((chapter) => chapter.modules.map((module) => ({ module, chapter: chapter.id }))),
    ...edition.chapters.flatMap((chapter) => chapter.modules.map((module) => ({ module, chapter: chapter.id }))),
  ];
  const byKey = new Map(served.map((entry) => [entry.module.key, entry]));
  const minutes = (module: ModuleContent) => Math.round(moduleWords(module, 'en') / WORDS_PER_MINUTE);
  const total = (language: 'en' | 'es') => served.reduce((sum, { module }) => sum + moduleWords(module, language), 0);
  const lines = [
    `# ${edition.name.en} (${edition.state}): crosswalk`,
    '',
    `Generated from the course content by \`npm run editions:crosswalk\`; a test fails when it is out of date.`,
    `A student of a ${edition.state} court is served the shared course and this edition's modules:`,
    `${String(total('en'))} words in English and ${String(total('es'))} in Spanish (module and topic text).`,
    '',
    '## Topics the state names',
    '',
    '| topic | rule | taught in (chapter: module) | words (en) | reading minutes |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const topic of edition.topics) {
    const entries = topic.modules.map((key) => {
      const entry = byKey.get(key);
      if (!entry) throw new Error(`${edition.id}: topic "${topic.topic}" names the unknown module ${key}`);
      return entry;
    });
    lines.push(
      `| ${topic.topic} | ${topic.rule} | ${entries.map(({ chapter, module }) => `${String(chapter)}: ${module.title.en}`).join('; ')} | ${entries.map(({ module }) => String(moduleWords(module, 'en'))).join('; ')} | ${entries.map(({ module }) => String(minutes(module))).join('; ')} |`,
    );
  }
  lines.push(
    '',
    "## The edition's own modules",
    '',
    '| chapter | module | words (en / es) | reading minutes | sections cited |',
    '| --- | --- | --- | --- | --- |',
  );
  for (const chapter of edition.chapters) {
    for (const module of chapter.modules) {
      lines.push(
        `| ${String(chapter.id)} | ${module.title.en} | ${String(moduleWords(module, 'en'))} / ${String(moduleWords(module, 'es'))} | ${String(minutes(module))} | ${citationsOf(module).join(', ')} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
