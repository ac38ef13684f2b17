import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import type { Database } from './client.ts';
import { foldedName, lastNameKeys, lastNameMatches } from './last-names.ts';
import { selectRawRows } from './raw-rows.ts';

describe('last names compared as typed (decision 064)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const keysOf = async (name: string) => {
    const [row] = await selectRawRows<{ keys: string[] }>(
      database.db,
      sql`select ${lastNameKeys(sql`${name}::text`)} as keys`,
    );
    return [...(row?.keys ?? [])].sort();
  };
  const folded = async (name: string) => {
    const [row] = await selectRawRows<{ folded: string }>(
      database.db,
      sql`select ${foldedName(sql`${name}::text`)} as folded`,
    );
    return row?.folded;
  };
  const matches = async (registered: string, typed: string) => {
    const [row] = await selectRawRows<{ matches: boolean }>(
      database.db,
      sql`select ${lastNameMatches(sql`${registered}::text`, typed)} as matches`,
    );
    return row?.matches;
  };

  it.each([
    ['Hernández García', ['garcia', 'hernandez', 'hernandezgarcia']],
    ['Hernández-García', ['garcia', 'hernandez', 'hernandezgarcia']],
    ["O'Brien", ['obrien']],
    ['O’Connor Núñez', ['nunez', 'oconnor', 'oconnornunez']],
    ['de la Cruz', ['cruz', 'de', 'delacruz', 'la']],
    ['  Müller  ', ['muller']],
    ['Nguyễn', ['nguyen']],
    ['MCARTHUR', ['mcarthur']],
  ])('folds %j into the keys %j', async (name, keys) => {
    expect(await keysOf(name)).toEqual(keys);
  });

  it('strips the accents of every Latin letter as Unicode decomposition (NFD) does', async () => {
    const letters = 'áéíóúüñÁÉÍÓÚÜÑàèìòùâêîôûäëïöçÇãõåøšžčćłśźżğışțăîđ';
    const unicode = letters
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
    expect(await folded(letters)).toBe(unicode);
  });

  it('accepts the whole name or any one surname, and not part of one or a blank', async () => {
    for (const typed of ['Hernandez', 'garcia', 'Hernández-García', 'HernandezGarcia', 'HERNÁNDEZ GARCÍA']) {
      expect(await matches('Hernández García', typed), typed).toBe(true);
    }
    for (const typed of ['Hernan', 'Garc', 'Garcia Lopez', '', ' - ']) {
      expect(await matches('Hernández García', typed), typed).toBe(false);
    }
  });
});
