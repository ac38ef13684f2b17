/**
 * Writes docs/editions/<id>.md, each state edition's crosswalk for its regulator (decision 051),
 * from the content. Run: `npm run editions:crosswalk`; server/src/db/edition-crosswalk.test.ts
 * fails while a committed crosswalk differs from what this writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCourseContent } from '../server/src/db/content-files.ts';
import { buildCrosswalk } from '../server/src/db/edition-crosswalk.ts';

const folder = fileURLToPath(new URL('../docs/editions', import.meta.url));
fs.mkdirSync(folder, { recursive: true });
const content = readCourseContent();
for (const edition of content.editions) {
  const file = path.join(folder, `${edition.id}.md`);
  fs.writeFileSync(file, buildCrosswalk(content, edition));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
