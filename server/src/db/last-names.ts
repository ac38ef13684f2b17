import { type SQL, sql } from 'drizzle-orm';

/*
 * Decision 064: a last name is compared as typed, whatever its accents, case, hyphens, apostrophes
 * and spaces, and a registered last name of several surnames accepts any one of them. The rule
 * lives here alone, as SQL both sides of a comparison are folded by, so the stored name and the
 * typed one can never be folded two ways (no copy of the keys is stored to keep in step with
 * corrections and staff edits). PostgreSQL's normalize() (13 and later, and PGlite) decomposes as
 * NFD; the unaccent extension is not available in PGlite.
 */

/** The combining diacritical marks NFD splits off a letter (á = a + U+0301). */
const COMBINING_MARKS = '[\u0300-\u036f]';
/** What a name is compared without: hyphens (ASCII and U+2010/U+2011), apostrophes (ASCII and U+2019), white space. */
const IGNORED = "[-\u2010\u2011'\u2019\\s]";
/** What separates the surnames of a last name: hyphens and white space. */
const SURNAME_SEPARATOR = '[-\u2010\u2011\\s]+';

/** A name folded for comparison: accents stripped, lower case, no hyphens, apostrophes or spaces. */
export function foldedName(name: SQL): SQL {
  return sql`regexp_replace(lower(regexp_replace(normalize(${name}, NFD), ${COMBINING_MARKS}, '', 'g')), ${IGNORED}, '', 'g')`;
}

/**
 * The keys a registered last name accepts: the whole name folded, and each of its surnames folded
 * ("Hernández García": hernandezgarcia, hernandez, garcia). Empty keys are left out.
 */
export function lastNameKeys(lastName: SQL): SQL {
  return sql`array(select distinct k from (
      select ${foldedName(lastName)} as k
      union all select ${foldedName(sql`part`)} from regexp_split_to_table(${lastName}, ${SURNAME_SEPARATOR}) as part
    ) keys where k <> '')`;
}

/** Whether a typed last name matches the registered one (decision 064); a blank one never does. */
export function lastNameMatches(registered: SQL, typed: string): SQL {
  return sql`${foldedName(sql`${typed}::text`)} = any(${lastNameKeys(registered)})`;
}

/**
 * Whether a search term is part of a name, both folded (decision 064: "hernandez" finds
 * "Hernández"). LIKE's own %, _ and \ in the term are matched as themselves; folding leaves them.
 */
export function foldedNameContains(name: SQL, term: string): SQL {
  const escaped = term.replace(/[\\%_]/g, (character) => `\\${character}`);
  const foldedTerm = foldedName(sql`${escaped}::text`);
  // A term of only spaces, hyphens or apostrophes folds to nothing, which would match every name.
  return sql`(${foldedTerm} <> '' and ${foldedName(name)} like '%' || ${foldedTerm} || '%')`;
}
