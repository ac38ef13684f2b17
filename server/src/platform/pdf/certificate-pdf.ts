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
import { localDate } from '../clock.ts';

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
  /** The court's case or citation number, when the student gave one (decision 024). */
  caseNumber?: string;
  /** A correction's reissue (decision 025): the number of the certificate it replaces. */
  replaces?: string;
  /** ISO timestamp; also the PDF's creation and modification date. */
  issuedAt: string;
}

export interface CertificatePdfOptions {
  schoolName: string;
  /** Absolute URL of the public verification page, encoded in the QR code. */
  verifyUrl: string;
  signatoryName?: string;
  /** SCHOOL_TIME_ZONE: the issue date is the school's day of `issuedAt`, as the completion date is. */
  timeZone: string;
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

/** English month names: the certificate and the dates a super_admin types use them. */
export const MONTHS = [
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

/**
 * OpenType features off (pdf-lib's embedFont `features`): pdf-lib places each glyph at its advance
 * width and ignores the shaper's positioning, and a ligature ("fi") would copy and search as one
 * letter; names are NFC-normalized (clean), so every Latin letter is one precomposed glyph.
 */
const ONE_GLYPH_PER_LETTER = { liga: false, clig: false, dlig: false, calt: false, rlig: false, kern: false };

let fontBytes: Promise<FontBytes> | undefined;
const parsedFonts = new WeakMap<Uint8Array, ReturnType<Fontkit['create']>>();

/**
 * fontkit (handed to pdf-lib's registerFontkit, its documented hook), each font file parsed once per
 * process rather than once a document: a parsed font is only read from (each document makes its own
 * subset), so sharing it is safe.
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
      customName: `${tags.regular}+NotoSerif-Regular`,
      features: ONE_GLYPH_PER_LETTER,
    }),
    bold: await doc.embedFont(bytes.bold, {
      subset: true,
      customName: `${tags.bold}+NotoSerif-Bold`,
      features: ONE_GLYPH_PER_LETTER,
    }),
  };

  doc.setTitle(`Certificate of Completion ${certificateNumber}`);
  doc.setAuthor(schoolName);
  doc.setSubject(`Certificate of completion for ${studentName}: ${clean(snapshot.courseName)}`);
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
    [
      { label: 'Certificate number', value: certificateNumber },
      // The school's day of the moment (a pass at 11 pm in California is not issued "tomorrow"),
      // the calendar the completion date is written in.
      { label: 'Issue date', value: formatIsoDate(localDate(issuedAt, options.timeZone)) },
      { label: 'Driver’s license number', value: clean(snapshot.dlNumber) },
      { label: 'Date of birth', value: clean(snapshot.dateOfBirth) },
      { label: 'Course rules', value: clean(snapshot.rulesProfile) },
    ],
    [
      { label: 'Court', value: clean(snapshot.courtName) },
      ...(snapshot.caseNumber ? [{ label: 'Case or citation number', value: clean(snapshot.caseNumber) }] : []),
      ...(snapshot.replaces ? [{ label: 'Corrected certificate: replaces', value: clean(snapshot.replaces) }] : []),
      { label: 'Course', value: clean(snapshot.courseName) },
    ],
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
  // Fields in a fixed order: key order or extra properties of the objects passed in must not change the bytes.
  const content = [
    snapshot.number,
    snapshot.studentName,
    snapshot.dlNumber,
    snapshot.dateOfBirth,
    snapshot.courtName,
    snapshot.courseName,
    snapshot.completionDate,
    snapshot.rulesProfile,
    snapshot.issuedAt,
    // Only when present, so a certificate issued before case numbers renders to the same bytes.
    ...(snapshot.caseNumber ? [snapshot.caseNumber] : []),
    ...(snapshot.replaces ? [`replaces ${snapshot.replaces}`] : []),
    options.schoolName,
    options.verifyUrl,
    options.signatoryName ?? null,
  ];
  const digest = createHash('sha256').update(JSON.stringify(content)).digest();
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

// Baselines from the bottom of the page, top to bottom; the inner border runs at 30 pt from each edge.
const LAYOUT = {
  schoolName: 528,
  title: 474,
  ornament: 452,
  certifiesThat: 416,
  studentName: 374,
  nameRule: 362,
  completedThe: 336,
  course: 313,
  completedOn: 290,
  detailsTop: 266,
  detailsRowHeight: 40,
  signatureLine: 100,
  qrBottom: 80,
  qrSize: 88,
  verifyText: 62,
};

function drawHeading(page: PDFPage, fonts: Fonts, schoolName: string): void {
  drawSpacedCentered(page, schoolName.toUpperCase(), {
    font: fonts.bold,
    size: 13,
    y: LAYOUT.schoolName,
    color: NAVY,
    spacing: 1.5,
  });
  drawCentered(page, 'Certificate of Completion', { font: fonts.bold, size: 36, y: LAYOUT.title, color: NAVY });
  drawOrnament(page, LAYOUT.ornament);
}

function drawRecipient(page: PDFPage, fonts: Fonts, studentName: string, courseName: string, date: string): void {
  const contentWidth = CONTENT_RIGHT - CONTENT_LEFT;
  drawCentered(page, 'This certifies that', { font: fonts.regular, size: 13, y: LAYOUT.certifiesThat, color: INK });
  const nameWidth = drawCentered(page, studentName, {
    font: fonts.bold,
    size: 30,
    y: LAYOUT.studentName,
    color: INK,
    maxWidth: contentWidth - 40,
  });
  // The rule under the name reaches a little past a long name.
  const ruleHalf = Math.max(240, nameWidth / 2 + 20);
  page.drawLine({
    start: { x: CENTER_X - ruleHalf, y: LAYOUT.nameRule },
    end: { x: CENTER_X + ruleHalf, y: LAYOUT.nameRule },
    color: GOLD,
    thickness: 0.75,
  });
  drawCentered(page, 'has successfully completed the', {
    font: fonts.regular,
    size: 12.5,
    y: LAYOUT.completedThe,
    color: INK,
  });
  drawCentered(page, courseName, {
    font: fonts.bold,
    size: 15,
    y: LAYOUT.course,
    color: NAVY,
    maxWidth: contentWidth,
  });
  drawCentered(page, `on ${date}.`, { font: fonts.regular, size: 12.5, y: LAYOUT.completedOn, color: INK });
}

interface Detail {
  label: string;
  value: string;
}

/**
 * Rows of facts, each label above its value, between two thin rules. Each cell is as wide as its label or value
 * plus an equal share of the row's spare room, so columns are evenly spaced and a long court name takes the room
 * that short values leave; a row too long for the page shrinks all its cells in proportion.
 */
function drawDetails(page: PDFPage, fonts: Fonts, rows: Detail[][]): void {
  const labelSize = 7;
  const valueSize = 10.5;
  const padding = 6;
  const width = CONTENT_RIGHT - CONTENT_LEFT;
  const rule = (y: number): void => {
    page.drawLine({ start: { x: CONTENT_LEFT, y }, end: { x: CONTENT_RIGHT, y }, color: GOLD, thickness: 0.5 });
  };
  const labelTop = LAYOUT.detailsTop - 16;
  rule(LAYOUT.detailsTop);
  rows.forEach((row, rowIndex) => {
    const labelY = labelTop - rowIndex * LAYOUT.detailsRowHeight;
    const cells = row.map((detail) => ({ ...detail, label: detail.label.toUpperCase() }));
    const natural = cells.map(
      (cell) =>
        Math.max(
          fonts.bold.widthOfTextAtSize(cell.label, labelSize),
          fonts.regular.widthOfTextAtSize(cell.value, valueSize),
        ) +
        2 * padding,
    );
    const total = natural.reduce((sum, cellWidth) => sum + cellWidth, 0);
    const spare = (width - total) / cells.length;
    let x = CONTENT_LEFT;
    cells.forEach((cell, index) => {
      const naturalWidth = natural[index] ?? 0;
      const cellWidth = spare >= 0 ? naturalWidth + spare : (naturalWidth * width) / total;
      const maxWidth = cellWidth - 2 * padding;
      drawLeft(page, cell.label, {
        font: fonts.bold,
        size: labelSize,
        x: x + padding,
        y: labelY,
        color: MUTED,
        maxWidth,
      });
      drawLeft(page, cell.value, {
        font: fonts.regular,
        size: valueSize,
        x: x + padding,
        y: labelY - 15,
        color: INK,
        maxWidth,
      });
      x += cellWidth;
    });
  });
  rule(labelTop - (rows.length - 1) * LAYOUT.detailsRowHeight - 27);
}

function drawSignature(page: PDFPage, fonts: Fonts, signatoryName: string): void {
  const left = CONTENT_LEFT + 6;
  const width = 220;
  const y = LAYOUT.signatureLine;
  page.drawLine({ start: { x: left, y }, end: { x: left + width, y }, color: INK, thickness: 0.75 });
  drawLeft(page, signatoryName, { font: fonts.bold, size: 11, x: left, y: y - 15, color: INK, maxWidth: width });
  drawLeft(page, 'Authorized signature', {
    font: fonts.regular,
    size: 8.5,
    x: left,
    y: y - 28,
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
  const size = LAYOUT.qrSize;
  const moduleSize = size / modules;
  const right = CONTENT_RIGHT - 6;
  const left = right - size;
  const bottom = LAYOUT.qrBottom;
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
    y: LAYOUT.verifyText,
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

/** Returns the width drawn. */
function drawCentered(page: PDFPage, text: string, style: TextStyle): number {
  const size = fitSize(text, style);
  const width = style.font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: CENTER_X - width / 2, y: style.y, size, font: style.font, color: style.color });
  return width;
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
  const [, year = '', month = '', day = ''] = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(value) ?? [];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const monthName = MONTHS[Number(month) - 1];
  if (monthName === undefined || date.getUTCDate() !== Number(day)) throw new Error(`Invalid ISO date: ${value}`);
  return `${monthName} ${Number(day)}, ${year}`;
}
