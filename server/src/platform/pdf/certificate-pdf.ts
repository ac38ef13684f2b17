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
  type PDFImage,
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
  /**
   * The court's state ('CA'), which picks the school's approval number printed (decision 062); absent
   * in snapshots written before it, whose certificates print none.
   */
  courtState?: string;
  /** The course's public name (the state edition's, decision 051), printed once. */
  courseName: string;
  /** ISO date 'YYYY-MM-DD'. */
  completionDate: string;
  /** The rules profile and version, for the school's records and emails; not printed (decision 062). */
  rulesProfile: string;
  /** The court's case or citation number, when the student gave one (decision 024). */
  caseNumber?: string;
  /** A correction's reissue (decision 025): the number of the certificate it replaces. */
  replaces?: string;
  /** ISO timestamp; also the PDF's creation and modification date. */
  issuedAt: string;
}

/** The school as a court clerk needs to reach and check it (decision 062). */
export interface CertificatePdfOptions {
  schoolName: string;
  /** SCHOOL_ADDRESS and SCHOOL_PHONE, printed under the school's name. */
  schoolAddress: string;
  schoolPhone: string;
  /** CERTIFICATE_SIGNER: printed under the signature line; a title '' prints the name alone. */
  signer: { name: string; title: string };
  /** The school's approval number in the court's state (content/certificate/approvals.json), when it has one. */
  approval?: { state: string; number: string } | undefined;
  /** A PNG of the signer's signature (content/certificate/signature.png), drawn above the line when given. */
  signaturePng?: Uint8Array | undefined;
  /** Absolute URL of the public verification page, encoded in the QR code. */
  verifyUrl: string;
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
const ALERT = rgb(0.62, 0.1, 0.08);

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
  if (snapshot.replaces) drawCorrectionBanner(page, fonts, clean(snapshot.replaces));
  const approval = options.approval
    ? { state: clean(options.approval.state), number: clean(options.approval.number) }
    : null;
  const details = layoutDetails(fonts, [
    [
      { label: 'Certificate number', value: certificateNumber },
      // The school's day of the moment (a pass at 11 pm in California is not issued "tomorrow"),
      // the calendar the completion date is written in.
      { label: 'Issue date', value: formatIsoDate(localDate(issuedAt, options.timeZone)) },
      { label: 'Driver’s license number', value: clean(snapshot.dlNumber) },
      { label: 'Date of birth', value: clean(snapshot.dateOfBirth) },
      ...(approval ? [{ label: `School approval no. (${approval.state})`, value: approval.number }] : []),
    ],
    [
      { label: 'Court', value: clean(snapshot.courtName) },
      ...(snapshot.caseNumber ? [{ label: 'Case or citation number', value: clean(snapshot.caseNumber) }] : []),
    ],
  ]);
  const signaturePng = options.signaturePng ? await doc.embedPng(options.signaturePng) : null;
  drawBody(page, fonts, {
    schoolName,
    contact: `${clean(options.schoolAddress)}  ·  ${clean(options.schoolPhone)}`,
    studentName,
    courseName: clean(snapshot.courseName),
    completionDate,
    details,
  });
  drawSignature(page, fonts, { name: clean(options.signer.name), title: clean(options.signer.title) }, signaturePng);
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
    snapshot.courtState ?? null,
    snapshot.courseName,
    snapshot.completionDate,
    snapshot.rulesProfile,
    snapshot.issuedAt,
    snapshot.caseNumber ?? null,
    snapshot.replaces ?? null,
    options.schoolName,
    options.schoolAddress,
    options.schoolPhone,
    options.signer.name,
    options.signer.title,
    options.approval?.state ?? null,
    options.approval?.number ?? null,
    options.signaturePng ? sha256Hex(options.signaturePng) : null,
    options.verifyUrl,
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

/**
 * No text on the certificate is smaller than this (decision 062): a clerk reads it printed, often
 * photocopied, and a long court name that shrank to 7 pt drew a phone call.
 */
export const MIN_TEXT_SIZE = 9;

/** Baselines and gaps in points from the bottom of the page; the inner border runs at 30 pt from each edge. */
const LAYOUT = {
  correctionBanner: 560,
  schoolName: 534,
  /** The lowest the facts' closing rule may reach: below it are the signature, the QR code and the link. */
  bodyFloor: 148,
  detailsRowTop: 14,
  detailsValue: 14,
  detailsLine: 13,
  detailsRowBottom: 11,
  signatureLine: 86,
  signatureImageHeight: 40,
  qrBottom: 56,
  qrSize: 80,
  verifyText: 42,
};

/**
 * A correction's reissue says so first, in words a clerk cannot miss, with the number it replaces
 * (decision 025): the clerk files it in place of the earlier one.
 */
function drawCorrectionBanner(page: PDFPage, fonts: Fonts, replaces: string): void {
  const text = `CORRECTED CERTIFICATE: replaces ${replaces}`;
  const size = 12;
  const width = Math.min(fonts.bold.widthOfTextAtSize(text, size), CONTENT_RIGHT - CONTENT_LEFT - 24);
  const y = LAYOUT.correctionBanner;
  page.drawRectangle({
    x: CENTER_X - width / 2 - 12,
    y: y - 7,
    width: width + 24,
    height: size + 10,
    color: rgb(0.99, 0.93, 0.92),
    borderColor: ALERT,
    borderWidth: 1,
  });
  drawLines(page, fit(text, { font: fonts.bold, size, minSize: size, maxWidth: width + 0.01 }), {
    align: 'center',
    x: CENTER_X,
    y,
    color: ALERT,
  });
}

interface BodyText {
  schoolName: string;
  contact: string;
  studentName: string;
  courseName: string;
  completionDate: string;
  details: DetailsLayout;
}

/**
 * The heading, the recipient sentence and the facts, top to bottom. Long texts wrap onto more lines
 * (never under MIN_TEXT_SIZE); when the lines would run into the signature and QR code, the gaps
 * between the parts close up in proportion.
 */
function drawBody(page: PDFPage, fonts: Fonts, text: BodyText): void {
  const contentWidth = CONTENT_RIGHT - CONTENT_LEFT;
  const school = fit(text.schoolName.toUpperCase(), {
    font: fonts.bold,
    size: 13,
    minSize: 11,
    maxWidth: contentWidth,
    spacing: 1.5,
    lineHeight: 16,
    balance: true,
  });
  const contact = fit(text.contact, { font: fonts.regular, size: 10, minSize: 10, maxWidth: contentWidth });
  const name = fit(text.studentName, {
    font: fonts.bold,
    size: 30,
    minSize: 20,
    maxWidth: contentWidth - 40,
    lineHeight: 32,
    balance: true,
  });
  const course = fit(text.courseName, {
    font: fonts.bold,
    size: 15,
    minSize: 13,
    maxWidth: contentWidth,
    lineHeight: 18,
    balance: true,
  });
  // Baseline-to-baseline gaps of a certificate whose every text is one line.
  const gaps = {
    contact: 17,
    title: 42,
    ornament: 22,
    certifies: 36,
    name: 42,
    completedThe: 38,
    course: 23,
    on: 23,
    details: 24,
  };
  const fixed = Object.values(gaps).reduce((sum, gap) => sum + gap, 0);
  const extra = school.extra + contact.extra + name.extra + course.extra + text.details.height;
  const room = LAYOUT.schoolName - LAYOUT.bodyFloor - extra;
  const squeeze = Math.min(1, Math.max(0.55, room / fixed));
  const gap = (value: number): number => value * squeeze;

  let y = LAYOUT.schoolName;
  y = drawLines(page, school, { align: 'center', x: CENTER_X, y, color: NAVY });
  y = drawLines(page, contact, { align: 'center', x: CENTER_X, y: y - gap(gaps.contact), color: MUTED });
  y -= gap(gaps.title);
  drawLines(page, fit('Certificate of Completion', { font: fonts.bold, size: 36, maxWidth: contentWidth }), {
    align: 'center',
    x: CENTER_X,
    y,
    color: NAVY,
  });
  y -= gap(gaps.ornament);
  drawOrnament(page, y);
  y -= gap(gaps.certifies);
  drawLines(page, fit('This certifies that', { font: fonts.regular, size: 13, maxWidth: contentWidth }), {
    align: 'center',
    x: CENTER_X,
    y,
    color: INK,
  });
  y = drawLines(page, name, { align: 'center', x: CENTER_X, y: y - gap(gaps.name), color: INK });
  // The rule under the name reaches a little past a long name.
  const ruleHalf = Math.max(240, name.width / 2 + 20);
  page.drawLine({
    start: { x: CENTER_X - ruleHalf, y: y - 12 },
    end: { x: CENTER_X + ruleHalf, y: y - 12 },
    color: GOLD,
    thickness: 0.75,
  });
  y -= gap(gaps.completedThe);
  drawLines(page, fit('has successfully completed the', { font: fonts.regular, size: 12.5, maxWidth: contentWidth }), {
    align: 'center',
    x: CENTER_X,
    y,
    color: INK,
  });
  y = drawLines(page, course, { align: 'center', x: CENTER_X, y: y - gap(gaps.course), color: NAVY });
  y -= gap(gaps.on);
  drawLines(page, fit(`on ${text.completionDate}.`, { font: fonts.regular, size: 12.5, maxWidth: contentWidth }), {
    align: 'center',
    x: CENTER_X,
    y,
    color: INK,
  });
  drawDetails(page, text.details, y - gap(gaps.details));
}

interface Detail {
  label: string;
  value: string;
}

interface DetailsLayout {
  rows: { cells: { x: number; label: FittedText; value: FittedText }[]; height: number }[];
  height: number;
}

/**
 * Rows of facts, each label above its value, between two thin rules. Each cell is as wide as its label or value
 * plus an equal share of the row's spare room, so columns are evenly spaced; in a row too long for the page the
 * short cells keep their width and the long ones share the rest, their text wrapping onto more lines (a 120-letter
 * court name takes two or three lines at the same size, decision 062).
 */
function layoutDetails(fonts: Fonts, rows: Detail[][]): DetailsLayout {
  const labelSize = MIN_TEXT_SIZE;
  const valueSize = 10.5;
  const padding = 6;
  const width = CONTENT_RIGHT - CONTENT_LEFT;
  const laidOut = rows.map((row) => {
    const cells = row.map((detail) => ({ ...detail, label: detail.label.toUpperCase() }));
    const natural = cells.map(
      (cell) =>
        Math.max(
          fonts.bold.widthOfTextAtSize(cell.label, labelSize),
          fonts.regular.widthOfTextAtSize(cell.value, valueSize),
        ) +
        2 * padding,
    );
    const widths = shareWidth(natural, width);
    let x = CONTENT_LEFT;
    const placed = cells.map((cell, index) => {
      const cellWidth = widths[index] ?? 0;
      const maxWidth = cellWidth - 2 * padding;
      const fitted = {
        x: x + padding,
        label: fit(cell.label, { font: fonts.bold, size: labelSize, minSize: labelSize, maxWidth, lineHeight: 11 }),
        value: fit(cell.value, {
          font: fonts.regular,
          size: valueSize,
          minSize: valueSize,
          maxWidth,
          lineHeight: LAYOUT.detailsLine,
        }),
      };
      x += cellWidth;
      return fitted;
    });
    const height =
      LAYOUT.detailsRowTop +
      LAYOUT.detailsValue +
      LAYOUT.detailsRowBottom +
      Math.max(...placed.map((cell) => cell.label.extra + cell.value.extra));
    return { cells: placed, height };
  });
  return { rows: laidOut, height: laidOut.reduce((sum, row) => sum + row.height, 0) };
}

/**
 * Widths for cells of these natural widths in `total`: spare room shared equally; too little room, and the cells
 * narrower than an equal share keep their natural width while the wider ones split what is left.
 */
function shareWidth(natural: number[], total: number): number[] {
  const sum = natural.reduce((a, b) => a + b, 0);
  if (sum <= total) return natural.map((width) => width + (total - sum) / natural.length);
  const widths: (number | undefined)[] = natural.map(() => undefined);
  let left = total;
  let open = natural.length;
  let changed = true;
  while (changed && open > 0) {
    changed = false;
    const share = left / open;
    natural.forEach((width, index) => {
      if (widths[index] === undefined && width <= share) {
        widths[index] = width;
        left -= width;
        open -= 1;
        changed = true;
      }
    });
  }
  return widths.map((width) => width ?? left / open);
}

function drawDetails(page: PDFPage, details: DetailsLayout, top: number): void {
  const rule = (y: number): void => {
    page.drawLine({ start: { x: CONTENT_LEFT, y }, end: { x: CONTENT_RIGHT, y }, color: GOLD, thickness: 0.5 });
  };
  rule(top);
  let rowTop = top;
  for (const row of details.rows) {
    for (const cell of row.cells) {
      const labelBottom = drawLines(page, cell.label, {
        align: 'left',
        x: cell.x,
        y: rowTop - LAYOUT.detailsRowTop,
        color: MUTED,
      });
      drawLines(page, cell.value, { align: 'left', x: cell.x, y: labelBottom - LAYOUT.detailsValue, color: INK });
    }
    rowTop -= row.height;
  }
  rule(rowTop);
}

/** The signature line, the signer's name and title under it, and their signature above it when the content has one. */
function drawSignature(
  page: PDFPage,
  fonts: Fonts,
  signer: { name: string; title: string },
  signaturePng: PDFImage | null,
): void {
  const left = CONTENT_LEFT + 6;
  const width = 230;
  const y = LAYOUT.signatureLine;
  if (signaturePng) {
    const scale = Math.min(width / signaturePng.width, LAYOUT.signatureImageHeight / signaturePng.height);
    page.drawImage(signaturePng, {
      x: left,
      y: y + 2,
      width: signaturePng.width * scale,
      height: signaturePng.height * scale,
    });
  }
  page.drawLine({ start: { x: left, y }, end: { x: left + width, y }, color: INK, thickness: 0.75 });
  const nameBottom = drawLines(page, fit(signer.name, { font: fonts.bold, size: 11, minSize: 10, maxWidth: width }), {
    align: 'left',
    x: left,
    y: y - 14,
    color: INK,
  });
  drawLines(
    page,
    fit(signer.title || 'Authorized signature', { font: fonts.regular, size: 10, minSize: 10, maxWidth: width }),
    { align: 'left', x: left, y: nameBottom - 13, color: MUTED },
  );
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
  // Wrapped at the slashes' words if ever too long; a very long address is still printed whole.
  drawLines(
    page,
    fit(`Verify at ${verifyUrl}`, { font: fonts.regular, size: MIN_TEXT_SIZE, minSize: MIN_TEXT_SIZE, maxWidth: 330 }),
    { align: 'right', x: right, y: LAYOUT.verifyText, color: MUTED },
  );
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

/** Text set to fit a width: its size and its lines. */
interface FittedText {
  font: PDFFont;
  size: number;
  spacing: number;
  lineHeight: number;
  lines: string[];
  /** The widest line's width. */
  width: number;
  /** How much taller than one line the text is. */
  extra: number;
}

interface FitStyle {
  font: PDFFont;
  size: number;
  /** The smallest the text may shrink to before it wraps (never under MIN_TEXT_SIZE); default: `size`. */
  minSize?: number;
  maxWidth: number;
  /** Letter spacing at `size`, scaled with it. */
  spacing?: number;
  /** Baseline to baseline at `size`, scaled with it; default 1.2 times the size. */
  lineHeight?: number;
  /** Centered text: lines of even length, rather than full lines and a short last one. */
  balance?: boolean;
}

/**
 * One line at `size` if it fits; otherwise one line shrunk as far as `minSize`; otherwise lines at `minSize`,
 * broken between words (a word wider than the line, between letters). Decision 062: nothing shrinks
 * under MIN_TEXT_SIZE; a long name takes more lines instead.
 */
function fit(text: string, style: FitStyle): FittedText {
  const minSize = Math.max(MIN_TEXT_SIZE, Math.min(style.minSize ?? style.size, style.size));
  const spacingAt = (size: number): number => ((style.spacing ?? 0) * size) / style.size;
  const measure = (line: string, size: number): number =>
    style.font.widthOfTextAtSize(line, size) + spacingAt(size) * Math.max(0, [...line].length - 1);
  const natural = measure(text, style.size);
  const shrunk = natural <= style.maxWidth ? style.size : (style.size * style.maxWidth) / natural;
  const size = Math.max(minSize, shrunk);
  const lines =
    size === shrunk ? [text] : wrap(text, (line) => measure(line, size), style.maxWidth, style.balance ?? false);
  const lineHeight = ((style.lineHeight ?? style.size * 1.2) * size) / style.size;
  return {
    font: style.font,
    size,
    spacing: spacingAt(size),
    lineHeight,
    lines,
    width: Math.max(...lines.map((line) => measure(line, size))),
    extra: (lines.length - 1) * lineHeight,
  };
}

function wrap(text: string, measure: (line: string) => number, maxWidth: number, balance: boolean): string[] {
  const greedy = wrapGreedy(text, measure, maxWidth);
  if (!balance || greedy.length < 2) return greedy;
  // The narrowest width that still takes no more lines (to a tenth of a point).
  let low = maxWidth / greedy.length;
  let high = maxWidth;
  while (high - low > 0.1) {
    const middle = (low + high) / 2;
    if (wrapGreedy(text, measure, middle).length <= greedy.length) high = middle;
    else low = middle;
  }
  return wrapGreedy(text, measure, high);
}

function wrapGreedy(text: string, measure: (line: string) => number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (measure(candidate) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    // A word wider than the line (a long hyphenated name, an address) is broken between letters.
    for (const letter of word) {
      if (line !== '' && measure(line + letter) > maxWidth) {
        lines.push(line);
        line = '';
      }
      line += letter;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Draws each line from baseline `y` down; returns the last line's baseline. */
function drawLines(
  page: PDFPage,
  text: FittedText,
  place: { align: 'left' | 'center' | 'right'; x: number; y: number; color: RGB },
): number {
  let y = place.y;
  text.lines.forEach((line, index) => {
    y = place.y - index * text.lineHeight;
    const width = text.font.widthOfTextAtSize(line, text.size) + text.spacing * Math.max(0, [...line].length - 1);
    const x = place.align === 'left' ? place.x : place.align === 'center' ? place.x - width / 2 : place.x - width;
    if (text.spacing !== 0) page.pushOperators(setCharacterSpacing(text.spacing));
    page.drawText(line, { x, y, size: text.size, font: text.font, color: place.color });
    if (text.spacing !== 0) page.pushOperators(setCharacterSpacing(0));
  });
  return y;
}
