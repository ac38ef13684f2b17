import type { ReportRow } from '@ts/contract';

/** The columns of the per-court report (spec 3 Report rows), in the file's order. */
export const REPORT_CSV_COLUMNS = [
  'court_name',
  'seven_day',
  'thirty_day',
  'sixty_day',
  'ninety_day',
  'total',
] as const;

/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"): a court
 * name typed as "=HYPERLINK(...)" must open as text, never run.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A field holding any of these is quoted (RFC 4180 section 2.6), the semicolon too: a spreadsheet
 * set to split on it would otherwise make "Ann;=HYPERLINK(...)" a cell that starts a formula.
 */
const NEEDS_QUOTES = /[",;\r\n]/;

/**
 * One CSV field, safe to open in a spreadsheet: prefixed with a single quote when it would start a
 * formula, then quoted (with inner quotes doubled) when it holds a comma, a semicolon, a quote or a
 * line break.
 */
export function neutraliseCell(value: string | number): string {
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows as CSV text: a header line of the columns, then one line per row, lines ended by CRLF (RFC 4180). */
export function rowsToCsv<Row, Key extends keyof Row & string>(columns: readonly Key[], rows: readonly Row[]): string {
  const lines = [
    columns.join(','),
    // An empty value (null) is an empty cell, never the word "null".
    ...rows.map((row) =>
      columns.map((column) => neutraliseCell((row[column] as string | number | null | undefined) ?? '')).join(','),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** The report as CSV text: a header line, then one line per court. */
export function toCsv(rows: readonly ReportRow[]): string {
  return rowsToCsv(REPORT_CSV_COLUMNS, rows);
}

/**
 * Saves the report as a file through a temporary link, built in the browser. The byte-order mark
 * lets spreadsheet programs read court names with accents as UTF-8.
 */
export function downloadReportCsv(rows: readonly ReportRow[], fileName: string): void {
  downloadCsv(toCsv(rows), fileName);
}

/** Saves CSV text as a file (UTF-8 with a byte-order mark). */
export function downloadCsv(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoked on the next turn: some browsers start the download only after click() returns.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
