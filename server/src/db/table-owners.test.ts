import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import * as schema from './schema.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TABLES = JSON.parse(fs.readFileSync(new URL('./table-owners.json', import.meta.url), 'utf8')) as {
  shared: string[];
  owners: Record<string, string[]>;
};

const schemaTables = Object.entries(schema)
  .filter(([, value]) => is(value, PgTable))
  .map(([name]) => name);

/** The ESLint errors of a file with this text at this path (the repository's own config). */
async function lintErrors(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('every table has an owner (decision 017)', () => {
  it('names each table of the schema once: shared, or owned by one feature', () => {
    const named = [...TABLES.shared, ...Object.values(TABLES.owners).flat()];
    expect([...named].sort()).toEqual([...schemaTables].sort());
    expect(new Set(named).size).toBe(named.length);
  });

  it('names only owners that exist: a feature folder, or a plugin module', () => {
    for (const owner of Object.keys(TABLES.owners)) {
      const path = owner.includes('/') ? `server/src/${owner}.ts` : `server/src/features/${owner}`;
      expect(fs.existsSync(`${ROOT}${path}`), path).toBe(true);
    }
  });

  it("refuses a feature importing another feature's table, saying whose service to call", async () => {
    const errors = await lintErrors(
      'server/src/features/registration/new-file.ts',
      "import { payments } from '../../db/schema.ts';\nexport const table = payments;\n",
    );
    expect(errors).toEqual([
      expect.stringContaining(
        'payments, paymentIntents, paymentEvents, testProviderIntents, refunds belong to payments',
      ),
    ]);
  });

  it('lets a feature import its own tables and the shared ones, and lets tests look at any table', async () => {
    expect(
      await lintErrors(
        'server/src/features/registration/new-file.ts',
        "import { resetTokens, students } from '../../db/schema.ts';\nexport const tables = [resetTokens, students];\n",
      ),
    ).toEqual([]);
    expect(
      await lintErrors(
        'server/src/features/registration/new-file.test.ts',
        "import { payments } from '../../db/schema.ts';\nexport const table = payments;\n",
      ),
    ).toEqual([]);
  });
});
