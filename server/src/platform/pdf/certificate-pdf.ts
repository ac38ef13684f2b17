import { createHash } from 'node:crypto';
import { PDFDocument, rgb, type PDFImage, type PDFPage } from 'pdf-lib';
import { localDate } from '../clock.ts';
import { drawDetails, layoutDetails, type DetailsLayout } from './certificate-details.ts';
import { embedCertificateFonts, type Fonts } from './certificate-fonts.ts';
import { drawQrCode } from './qr-code.ts';
import {
  ALERT,
  CENTER_X,
  CONTENT_LEFT,
  CONTENT_RIGHT,
  GOLD,
  INK,
  MUTED,
  NAVY,
  PAGE_HEIGHT,
  PAGE_WIDTH,
} from './certificate-style.ts';
import { drawLines, fit, MIN_TEXT_SIZE, stack } from './text-layout.ts';

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

  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await embedCertificateFonts(doc, subsetTags(snapshot, options));

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
    address: clean(options.schoolAddress),
    phone: clean(options.schoolPhone),
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

/** Baselines and gaps in points from the bottom of the page; the inner border runs at 30 pt from each edge. */
const LAYOUT = {
  correctionBanner: 560,
  schoolName: 534,
  /** The lowest the facts' closing rule may reach: below it are the signature, the QR code and the link. */
  bodyFloor: 148,
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
  address: string;
  phone: string;
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
  const contactStyle = { font: fonts.regular, size: 10, minSize: 10, maxWidth: contentWidth, balance: true };
  // One line when it fits; otherwise the address's lines, then the phone on its own.
  const oneLine = fit(`${text.address}  ·  ${text.phone}`, contactStyle);
  const contact =
    oneLine.lines.length === 1 ? oneLine : stack(fit(text.address, contactStyle), fit(text.phone, contactStyle));
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

/** The QR code of the verification page, and its address under it for a clerk with no phone at hand. */
function drawVerification(page: PDFPage, fonts: Fonts, verifyUrl: string): void {
  const right = CONTENT_RIGHT - 6;
  drawQrCode(page, verifyUrl, {
    left: right - LAYOUT.qrSize,
    bottom: LAYOUT.qrBottom,
    size: LAYOUT.qrSize,
    color: INK,
  });
  // An address too long for its room wraps between letters (it has no spaces), never shrinks.
  drawLines(
    page,
    fit(`Verify at ${verifyUrl}`, { font: fonts.regular, size: MIN_TEXT_SIZE, minSize: MIN_TEXT_SIZE, maxWidth: 330 }),
    { align: 'right', x: right, y: LAYOUT.verifyText, color: MUTED },
  );
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
