import type { IdentitySource } from '@ts/contract';

/**
 * Identity answers compared forgivingly (decision 012): case, spaces, punctuation and accents do
 * not matter, and a date of birth may be written in any common form. Pure functions: the answer
 * is compared and forgotten, never stored.
 */

/** The facts of the student's record a question can ask about. */
export interface IdentityRecord {
  /** YYYY-MM-DD, as students.dob. */
  dob: string;
  zip: string;
  /** The registered street address ("1234 Main Street"). */
  address: string;
  dlNumber: string;
  courtName: string;
}

/** The house number of a registered address (its first run of digits), or null when it has none. */
export function streetNumberOf(address: string): string | null {
  return /\d+/.exec(address)?.[0] ?? null;
}

/** Lower case, accents removed, and only letters and digits kept. */
export function normaliseAnswer(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

const MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  enero: 1,
  ene: 1,
  february: 2,
  feb: 2,
  febrero: 2,
  march: 3,
  mar: 3,
  marzo: 3,
  april: 4,
  apr: 4,
  abril: 4,
  abr: 4,
  may: 5,
  mayo: 5,
  june: 6,
  jun: 6,
  junio: 6,
  july: 7,
  jul: 7,
  julio: 7,
  august: 8,
  aug: 8,
  agosto: 8,
  ago: 8,
  september: 9,
  sept: 9,
  sep: 9,
  septiembre: 9,
  setiembre: 9,
  set: 9,
  october: 10,
  oct: 10,
  octubre: 10,
  november: 11,
  nov: 11,
  noviembre: 11,
  december: 12,
  dec: 12,
  diciembre: 12,
  dic: 12,
};

/** Words a written date may carry besides the month ("the 5th of April", "5 de abril de 1990"). */
const FILLER_WORDS = new Set(['the', 'of', 'de', 'del', 'st', 'nd', 'rd', 'th']);

/** A calendar date as YYYY-MM-DD, or null when the day does not exist. */
function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A written year: four digits, or two (read as 19xx and 20xx). */
function years(token: string): number[] {
  if (/^\d{4}$/.test(token)) return [Number(token)];
  if (/^\d{2}$/.test(token)) return [1900 + Number(token), 2000 + Number(token)];
  return [];
}

/**
 * Every date a written answer can mean, as YYYY-MM-DD: 04/15/1990, 4-15-90, 1990-04-15,
 * 04151990, "April 15th, 1990", "15 de abril de 1990". Month and day are read both ways round
 * (15/04/1990 as well), which helps students used to either order.
 */
export function readDates(answer: string): string[] {
  const text = answer
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    // "15th" -> "15 th", "april15" -> "april 15"
    .replace(/(\d)([a-z])/g, '$1 $2')
    .replace(/([a-z])(\d)/g, '$1 $2');
  const tokens = text.split(/[^a-z0-9]+/).filter((token) => token !== '' && !FILLER_WORDS.has(token));
  const found = new Set<string>();
  const add = (year: number, month: number, day: number) => {
    const date = isoDate(year, month, day);
    if (date) found.add(date);
  };

  const words = tokens.filter((token) => /[a-z]/.test(token));
  const numbers = tokens.filter((token) => /^\d+$/.test(token));
  if (words.length === 1 && numbers.length === 2) {
    const month = MONTHS[words[0] ?? ''];
    const [first = '', second = ''] = numbers;
    if (month !== undefined) {
      // "April 15 1990" or "1990 April 15": the day is the one of one or two digits.
      if (first.length <= 2) for (const year of years(second)) add(year, month, Number(first));
      if (second.length <= 2 && first.length === 4) add(Number(first), month, Number(second));
    }
    return [...found];
  }
  if (words.length > 0) return [];

  if (numbers.length === 3) {
    const [a = '', b = '', c = ''] = numbers;
    if (a.length === 4) add(Number(a), Number(b), Number(c));
    if (a.length <= 2 && b.length <= 2) {
      for (const year of years(c)) {
        add(year, Number(a), Number(b));
        add(year, Number(b), Number(a));
      }
    }
  } else if (numbers.length === 1) {
    const digits = numbers[0] ?? '';
    if (digits.length === 8) {
      add(Number(digits.slice(4)), Number(digits.slice(0, 2)), Number(digits.slice(2, 4)));
      add(Number(digits.slice(4)), Number(digits.slice(2, 4)), Number(digits.slice(0, 2)));
      add(Number(digits.slice(0, 4)), Number(digits.slice(4, 6)), Number(digits.slice(6)));
    } else if (digits.length === 6) {
      for (const year of years(digits.slice(4))) {
        add(year, Number(digits.slice(0, 2)), Number(digits.slice(2, 4)));
        add(year, Number(digits.slice(2, 4)), Number(digits.slice(0, 2)));
      }
    }
  }
  return [...found];
}

/** Does the answer match the student's record for this question? */
export function answerMatches(source: IdentitySource, answer: string, record: IdentityRecord): boolean {
  switch (source) {
    case 'dob':
      return readDates(answer).includes(record.dob);
    case 'zip': {
      const given = answer.replace(/\D/g, '');
      const expected = record.zip.replace(/\D/g, '').slice(0, 5);
      return expected.length === 5 && given.slice(0, 5) === expected;
    }
    case 'dl_last4': {
      const given = normaliseAnswer(answer);
      const licence = normaliseAnswer(record.dlNumber);
      // The whole number shows the student knows its last four as well.
      return given !== '' && (given === licence.slice(-4) || given === licence);
    }
    case 'court': {
      const given = normaliseAnswer(answer);
      return given !== '' && given === normaliseAnswer(record.courtName);
    }
    case 'street_number': {
      const expected = streetNumberOf(record.address);
      const given = /\d+/.exec(answer)?.[0];
      return expected !== null && given !== undefined && Number(given) === Number(expected);
    }
    case 'personal':
      // Compared with the stored hash (personal-questions.ts), never here.
      return false;
  }
}
