import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import fontkit from '@pdf-lib/fontkit';
import {
  fill,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setCharacterSpacing,
  setFillingRgbColor,
  type PDFFont,
  type PDFPage,
  type RGB,
} from 'pdf-lib';
import QRCode from 'qrcode';

/** What the certificate shows, frozen when it is issued so a re-render gives the same document. */
export interface CertificateSnapshot {
  /** Human-readable, gap-free sequence, e.g. 'TS-2026-000123'. */
  number: string;
  /** As registered; any Latin letter (José Núñez, Zoë Łukasz, Đorđe Čolić) must render. */
  studentName: string;
  dlNumber: string;
  /** 'MM/DD/YYYY', printed as given. */
  dateOfBirth: string;
  courtName: string;
  courseName: string;
  /** ISO date 'YYYY-MM-DD'. */
  completionDate: string;
  rulesProfile: string;
  /** ISO timestamp; also the PDF's creation and modification date. */
  issuedAt: string;
}

export interface CertificatePdfOptions {
  schoolName: string;
  /** Absolute URL of the public verification page, encoded in the QR code. */
  verifyUrl: string;
  signatoryName?: string;
}

const PAGE_WIDTH = 792;
const PAGE_HEIGHT = 612;
const CENTER_X = PAGE_WIDTH / 2;
const CONTENT_LEFT = 84;
const CONTENT_RIGHT = PAGE_WIDTH - 84;

const NAVY = rgb(0.1, 0.18, 0.33);
const GOLD = rgb(0.68, 0.54, 0.24);
const INK = rgb(0.13, 0.13, 0.15);
const MUTED = rgb(0.38, 0.38, 0.42);

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

interface FontBytes {
  regular: Uint8Array;
  bold: Uint8Array;
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];

let fontBytes: Promise<FontBytes> | undefined;
const parsedFonts = new WeakMap<Uint8Array, ReturnType<Fontkit['create']>>();

/**
 * fontkit, but each font file is parsed once per process: parsing a font's shaping tables again took about
 * 40 ms a document. A parsed font is only read from (each document makes its own subset), so sharing it is safe.
 */
const cachingFontkit: Fontkit = {
  create(buffer, postscriptName) {
    const parsed = parsedFonts.get(buffer) ?? fontkit.create(buffer, postscriptName);
    parsedFonts.set(buffer, parsed);
    return parsed;
  },
};

/** Noto Serif (SIL OFL 1.1, see fonts/OFL.txt): read once per process, embedded as a subset per document. */
function loadFontBytes(): Promise<FontBytes> {
  fontBytes ??= Promise.all([
    readFile(new URL('./fonts/NotoSerif-Regular.ttf', import.meta.url)),
    readFile(new URL('./fonts/NotoSerif-Bold.ttf', import.meta.url)),
  ]).then(([regular, bold]) => ({ regular, bold }));
  fontBytes.catch(() => {
    fontBytes = undefined;
  });
  return fontBytes;
}

/**
 * pdf-lib places each glyph at its advance width and ignores the shaper's positioning (kerning, mark placement),
 * so OpenType shaping only cost time (about three quarters of a render). Names are NFC-normalized, so every
 * Latin letter is one precomposed glyph, and without ligatures the text copies and searches letter by letter.
 */
const NO_SHAPING_FEATURES = {
  rvrn: false,
  ltra: false,
  ltrm: false,
  frac: false,
  numr: false,
  dnom: false,
  ccmp: false,
  locl: false,
  rlig: false,
  mark: false,
  mkmk: false,
  calt: false,
  clig: false,
  liga: false,
  rclt: false,
  curs: false,
  kern: false,
};

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Renders the one-page certificate of completion. The same snapshot and options always give the same bytes:
 * every date in the file comes from `issuedAt`, never from the clock.
 */
export async function renderCertificatePdf(
  snapshot: CertificateSnapshot,
  options: CertificatePdfOptions,
): Promise<Uint8Array> {
  const issuedAt = parseTimestamp(snapshot.issuedAt);
  const completionDate = formatIsoDate(snapshot.completionDate);
  const verifyUrl = new URL(options.verifyUrl).href;
  const schoolName = clean(options.schoolName);
  const studentName = clean(snapshot.studentName);
  const certificateNumber = clean(snapshot.number);

  const bytes = await loadFontBytes();
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(cachingFontkit);
  const tags = subsetTags(snapshot, options);
  const fonts: Fonts = {
    regular: await doc.embedFont(bytes.regular, {
      subset: true,
      features: NO_SHAPING_FEATURES,
      customName: `${tags.regular}+NotoSerif-Regular`,
    }),
    bold: await doc.embedFont(bytes.bold, {
      subset: true,
      features: NO_SHAPING_FEATURES,
      customName: `${tags.bold}+NotoSerif-Bold`,
    }),
  };

  doc.setTitle(`Certificate of Completion ${certificateNumber}`);
  doc.setAuthor(schoolName);
  doc.setSubject(`Certificate of completion for ${studentName}`);
  doc.setKeywords(['certificate of completion', certificateNumber]);
  doc.setCreator(`${schoolName} certificate renderer`);
  doc.setProducer('pdf-lib');
  doc.setLanguage('en-US');
  doc.setCreationDate(issuedAt);
  doc.setModificationDate(issuedAt);

  const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  drawBorder(page);
  drawHeading(page, fonts, schoolName);
  drawRecipient(page, fonts, studentName, clean(snapshot.courseName), completionDate);
  drawDetails(page, fonts, [
    { label: 'Certificate number', value: certificateNumber },
    { label: 'Issue date', value: formatIsoDate(snapshot.issuedAt.slice(0, 10)) },
    { label: 'Driver’s license number', value: clean(snapshot.dlNumber) },
    { label: 'Date of birth', value: clean(snapshot.dateOfBirth) },
    { label: 'Rules profile', value: clean(snapshot.rulesProfile) },
    { label: 'Court', value: clean(snapshot.courtName) },
    { label: 'Course', value: clean(snapshot.courseName) },
  ]);
  drawSignature(page, fonts, clean(options.signatoryName ?? 'School Director'));
  drawVerification(page, fonts, verifyUrl);

  return doc.save();
}

/**
 * A subset font's name starts with six capital letters and '+' (PDF 32000-1, 9.6.4), different for different
 * subsets. Derived from the content, never random, so the same certificate renders to the same bytes.
 */
function subsetTags(snapshot: CertificateSnapshot, options: CertificatePdfOptions): { regular: string; bold: string } {
  const digest = createHash('sha256')
    .update(JSON.stringify([snapshot, options]))
    .digest();
  const letters = [...digest.subarray(0, 12)].map((byte) => String.fromCharCode(65 + (byte % 26))).join('');
  return { regular: letters.slice(0, 6), bold: letters.slice(6) };
}

function drawBorder(page: PDFPage): void {
  page.drawRectangle({
    x: 22,
    y: 22,
    width: PAGE_WIDTH - 44,
    height: PAGE_HEIGHT - 44,
    borderColor: NAVY,
    borderWidth: 3,
  });
  page.drawRectangle({
    x: 30,
    y: 30,
    width: PAGE_WIDTH - 60,
    height: PAGE_HEIGHT - 60,
    borderColor: GOLD,
    borderWidth: 1,
  });
}

function drawHeading(page: PDFPage, fonts: Fonts, schoolName: string): void {
  drawSpacedCentered(page, schoolName.toUpperCase(), { font: fonts.bold, size: 13, y: 534, color: NAVY, spacing: 1.5 });
  drawCentered(page, 'Certificate of Completion', { font: fonts.bold, size: 36, y: 484, color: NAVY });
  drawOrnament(page, 462);
}

function drawRecipient(page: PDFPage, fonts: Fonts, studentName: string, courseName: string, date: string): void {
  drawCentered(page, 'This certifies that', { font: fonts.regular, size: 13, y: 426, color: INK });
  drawCentered(page, studentName, { font: fonts.bold, size: 30, y: 384, color: INK, maxWidth: 560 });
  page.drawLine({
    start: { x: CENTER_X - 230, y: 372 },
    end: { x: CENTER_X + 230, y: 372 },
    color: GOLD,
    thickness: 0.75,
  });

  const sentence = `has successfully completed the ${courseName} on ${date}.`;
  const { lines, size } = wrapToLines(sentence, fonts.regular, 13, 600, 2);
  lines.forEach((line, index) => {
    drawCentered(page, line, { font: fonts.regular, size, y: 348 - index * (size + 5), color: INK });
  });
}

interface Detail {
  label: string;
  value: string;
}

/**
 * Five short facts on one row, the two long ones (court, course) on a second row, each label above its value.
 */
function drawDetails(page: PDFPage, fonts: Fonts, details: Detail[]): void {
  const top = 286;
  const width = CONTENT_RIGHT - CONTENT_LEFT;
  page.drawLine({
    start: { x: CONTENT_LEFT, y: top + 16 },
    end: { x: CONTENT_RIGHT, y: top + 16 },
    color: GOLD,
    thickness: 0.5,
  });
  const rows = [details.slice(0, 5), details.slice(5)];
  rows.forEach((row, rowIndex) => {
    const cellWidth = width / row.length;
    row.forEach((detail, cellIndex) => {
      const x = CONTENT_LEFT + cellIndex * cellWidth + 6;
      const y = top - rowIndex * 40;
      drawLeft(page, detail.label.toUpperCase(), {
        font: fonts.bold,
        size: 7,
        x,
        y,
        color: MUTED,
        maxWidth: cellWidth - 12,
      });
      drawLeft(page, detail.value, {
        font: fonts.regular,
        size: 10.5,
        x,
        y: y - 15,
        color: INK,
        maxWidth: cellWidth - 12,
      });
    });
  });
  const bottom = top - 40 * (rows.length - 1) - 27;
  page.drawLine({
    start: { x: CONTENT_LEFT, y: bottom },
    end: { x: CONTENT_RIGHT, y: bottom },
    color: GOLD,
    thickness: 0.5,
  });
}

function drawSignature(page: PDFPage, fonts: Fonts, signatoryName: string): void {
  const left = CONTENT_LEFT + 6;
  const width = 220;
  page.drawLine({ start: { x: left, y: 110 }, end: { x: left + width, y: 110 }, color: INK, thickness: 0.75 });
  drawLeft(page, signatoryName, { font: fonts.bold, size: 11, x: left, y: 95, color: INK, maxWidth: width });
  drawLeft(page, 'Authorized signature', {
    font: fonts.regular,
    size: 8.5,
    x: left,
    y: 82,
    color: MUTED,
    maxWidth: width,
  });
}

/**
 * The QR code is vector art: each run of dark modules in a row is one filled rectangle, so it stays sharp at any zoom
 * and adjacent modules leave no hairline seams. Raw operators, because pdf-lib's drawRectangle wraps every
 * rectangle in its own graphics state and was most of a render's time.
 */
function drawVerification(page: PDFPage, fonts: Fonts, verifyUrl: string): void {
  const qr = QRCode.create(verifyUrl, { errorCorrectionLevel: 'M' });
  const modules = qr.modules.size;
  const size = 88;
  const moduleSize = size / modules;
  const right = CONTENT_RIGHT - 6;
  const left = right - size;
  const bottom = 92;
  const operators = [pushGraphicsState(), setFillingRgbColor(INK.red, INK.green, INK.blue)];
  for (let row = 0; row < modules; row += 1) {
    let column = 0;
    while (column < modules) {
      if (!qr.modules.get(row, column)) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < modules && qr.modules.get(row, column)) column += 1;
      operators.push(
        rectangle(
          round(left + start * moduleSize),
          round(bottom + size - (row + 1) * moduleSize),
          round((column - start) * moduleSize),
          round(moduleSize),
        ),
      );
    }
  }
  operators.push(fill(), popGraphicsState());
  page.pushOperators(...operators);
  drawRight(page, `Verify at ${verifyUrl}`, {
    font: fonts.regular,
    size: 7,
    x: right,
    y: 80,
    color: MUTED,
    maxWidth: 300,
  });
}

/** Three decimals (1/1000 pt) is far finer than any printer, and keeps the content stream short. */
function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function drawOrnament(page: PDFPage, y: number): void {
  page.drawLine({ start: { x: CENTER_X - 110, y }, end: { x: CENTER_X - 10, y }, color: GOLD, thickness: 0.75 });
  page.drawLine({ start: { x: CENTER_X + 10, y }, end: { x: CENTER_X + 110, y }, color: GOLD, thickness: 0.75 });
  page.drawSvgPath('M 0 -4 L 4 0 L 0 4 L -4 0 Z', { x: CENTER_X, y, color: GOLD });
}

interface TextStyle {
  font: PDFFont;
  size: number;
  y: number;
  color: RGB;
  /** When set, the text shrinks to this width instead of overflowing. */
  maxWidth?: number;
}

function drawCentered(page: PDFPage, text: string, style: TextStyle): void {
  const size = fitSize(text, style);
  const width = style.font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: CENTER_X - width / 2, y: style.y, size, font: style.font, color: style.color });
}

function drawLeft(page: PDFPage, text: string, style: TextStyle & { x: number }): void {
  page.drawText(text, { x: style.x, y: style.y, size: fitSize(text, style), font: style.font, color: style.color });
}

function drawRight(page: PDFPage, text: string, style: TextStyle & { x: number }): void {
  const size = fitSize(text, style);
  const width = style.font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: style.x - width, y: style.y, size, font: style.font, color: style.color });
}

/** Letter-spaced, centered text (the school's name); long names shrink to the page's content width. */
function drawSpacedCentered(page: PDFPage, text: string, style: TextStyle & { spacing: number }): void {
  const glyphs = [...text].length;
  const naturalWidth = style.font.widthOfTextAtSize(text, style.size) + style.spacing * glyphs;
  const scale = Math.min(1, (CONTENT_RIGHT - CONTENT_LEFT) / naturalWidth);
  const size = style.size * scale;
  const spacing = style.spacing * scale;
  // Character spacing also follows the last glyph; leave it out of the centered width.
  const width = style.font.widthOfTextAtSize(text, size) + spacing * (glyphs - 1);
  page.pushOperators(setCharacterSpacing(spacing));
  page.drawText(text, { x: CENTER_X - width / 2, y: style.y, size, font: style.font, color: style.color });
  page.pushOperators(setCharacterSpacing(0));
}

function fitSize(text: string, style: TextStyle): number {
  if (style.maxWidth === undefined) return style.size;
  const width = style.font.widthOfTextAtSize(text, style.size);
  return width <= style.maxWidth ? style.size : (style.size * style.maxWidth) / width;
}

/** Word-wraps to at most `maxLines` lines of `maxWidth`, shrinking the font until it fits. */
function wrapToLines(
  text: string,
  font: PDFFont,
  preferredSize: number,
  maxWidth: number,
  maxLines: number,
): { lines: string[]; size: number } {
  let size = preferredSize;
  for (;;) {
    const lines = wrap(text, font, size, maxWidth);
    const widest = Math.max(...lines.map((line) => font.widthOfTextAtSize(line, size)));
    if (lines.length <= maxLines && widest <= maxWidth) return { lines, size };
    if (lines.length <= maxLines) return { lines, size: (size * maxWidth) / widest };
    size *= 0.95;
  }
}

function wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && font.widthOfTextAtSize(candidate, size) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  lines.push(line);
  return lines;
}

/** One line of text: NFC so a name typed with combining accents uses the font's precomposed letters. */
function clean(text: string): string {
  return text.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

function parseTimestamp(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`Invalid issuedAt timestamp: ${value}`);
  return date;
}

/** 'YYYY-MM-DD' -> 'November 22, 2026'; the date is printed as given, with no time zone conversion. */
function formatIsoDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(value);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || month === undefined) throw new Error(`Invalid ISO date: ${value}`);
  return `${month} ${Number(match[3])}, ${match[1]}`;
}
