import { readFile } from 'node:fs/promises';
import fontkit from '@pdf-lib/fontkit';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import {
  renderCertificatePdf,
  sha256Hex,
  type CertificatePdfOptions,
  type CertificateSnapshot,
} from './certificate-pdf.ts';

function createSnapshot(overrides: Partial<CertificateSnapshot> = {}): CertificateSnapshot {
  return {
    number: 'TS-2026-000123',
    studentName: 'José Núñez',
    dlNumber: 'D1234567',
    dateOfBirth: '04/17/1990',
    courtName: 'Superior Court of California, County of Santa Clara',
    courtState: 'CA',
    courseName: 'Court-Assigned Defensive Driving Course (4 chapters and final exam)',
    completionDate: '2026-11-22',
    rulesProfile: 'Standard course (version 1)',
    issuedAt: '2026-11-22T18:30:00.000Z',
    ...overrides,
  };
}

/** The same object, its keys written in the opposite order. */
function withKeysReversed<T extends object>(value: T): T {
  const reversed = {} as T;
  for (const key of (Object.keys(value) as (keyof T)[]).reverse()) reversed[key] = value[key];
  return reversed;
}

function createOptions(overrides: Partial<CertificatePdfOptions> = {}): CertificatePdfOptions {
  return {
    schoolName: 'Golden State Online Traffic School',
    schoolAddress: '2200 Harbor Boulevard, Suite 140, Costa Mesa, CA 92626',
    schoolPhone: '(714) 555-0142',
    signer: { name: 'Maria Lopez', title: 'School Director' },
    verifyUrl: 'https://traffic-school.example.com/verify/TS-2026-000123',
    timeZone: 'America/Los_Angeles',
    ...overrides,
  };
}

interface TextRun {
  text: string;
  size: number;
  x: number;
  y: number;
}

/**
 * pdf-lib cannot extract text, so this reads what a PDF viewer would: each text-showing operator of the page's
 * content, with its glyph codes mapped back to Unicode through the embedded font's ToUnicode map.
 */
async function readPage(
  bytes: Uint8Array,
): Promise<{ runs: TextRun[]; content: string; resources: PDFDict; toUnicode: Map<string, Map<string, string>> }> {
  const doc = await PDFDocument.load(bytes);
  const page = doc.getPage(0);
  const resources = page.node.Resources();
  if (!resources) throw new Error('page has no resources');
  const decode = (stream: unknown): string => {
    if (!(stream instanceof PDFRawStream)) throw new Error('expected a stream as pdf-lib loads it');
    return new TextDecoder().decode(decodePDFRawStream(stream).decode());
  };

  const fonts = resources.lookup(PDFName.of('Font'), PDFDict);
  const toUnicode = new Map<string, Map<string, string>>();
  for (const [name] of fonts.entries()) {
    const cmap = decode(fonts.lookup(name, PDFDict).lookup(PDFName.of('ToUnicode')));
    const map = new Map<string, string>();
    for (const [, code = '', unicode = ''] of cmap.matchAll(/<([0-9a-fA-F]{4})> <([0-9a-fA-F]+)>/g)) {
      const units = unicode.match(/.{4}/g) ?? [];
      map.set(code.toUpperCase(), String.fromCharCode(...units.map((unit) => parseInt(unit, 16))));
    }
    toUnicode.set(name.asString(), map);
  }

  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  const content = streams.map(decode).join('\n');

  const runs: TextRun[] = [];
  let font = new Map<string, string>();
  let size = 0;
  let x = 0;
  let y = 0;
  for (const line of content.split('\n')) {
    const fontOperator = /^(\/\S+) ([\d.]+) Tf$/.exec(line);
    const matrix = /^1 0 0 1 ([\d.-]+) ([\d.-]+) Tm$/.exec(line);
    const show = /^<([0-9A-Fa-f]*)> Tj$/.exec(line);
    if (fontOperator) {
      font = toUnicode.get(fontOperator[1] ?? '') ?? new Map();
      size = Number(fontOperator[2]);
    } else if (matrix) {
      x = Number(matrix[1]);
      y = Number(matrix[2]);
    } else if (show) {
      const codes = show[1]?.match(/.{4}/g) ?? [];
      runs.push({ text: codes.map((code) => font.get(code.toUpperCase()) ?? '\uFFFD').join(''), size, x, y });
    }
  }
  return { runs, content, resources, toUnicode };
}

function runWithText(runs: TextRun[], text: string): TextRun {
  const run = runs.find((candidate) => candidate.text === text);
  if (!run) throw new Error(`no text run "${text}" in:\n${runs.map((r) => r.text).join('\n')}`);
  return run;
}

describe('renderCertificatePdf', () => {
  it('makes a PDF file', async () => {
    const bytes = await renderCertificatePdf(createSnapshot(), createOptions());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
  });

  it('makes one landscape US Letter page (792 x 612 pt) that pdf-lib reads back', async () => {
    const doc = await PDFDocument.load(await renderCertificatePdf(createSnapshot(), createOptions()));
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getPage(0).getSize()).toEqual({ width: 792, height: 612 });
  });

  it('titles the document with the certificate number and dates it from issuedAt, not the clock', async () => {
    const doc = await PDFDocument.load(await renderCertificatePdf(createSnapshot(), createOptions()), {
      updateMetadata: false,
    });
    expect(doc.getTitle()).toBe('Certificate of Completion TS-2026-000123');
    expect(doc.getAuthor()).toBe('Golden State Online Traffic School');
    expect(doc.getCreator()).toBeTruthy();
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-11-22T18:30:00.000Z');
    expect(doc.getModificationDate()?.toISOString()).toBe('2026-11-22T18:30:00.000Z');
  });

  it('renders the same snapshot to the same bytes', async () => {
    const first = await renderCertificatePdf(createSnapshot(), createOptions());
    const second = await renderCertificatePdf(createSnapshot(), createOptions());
    expect(sha256Hex(second)).toBe(sha256Hex(first));
  });

  it('renders the same bytes whatever the order of the snapshot fields', async () => {
    const snapshot = createSnapshot();
    const reordered = withKeysReversed(snapshot);
    const first = await renderCertificatePdf(snapshot, createOptions());
    const second = await renderCertificatePdf(reordered, createOptions());
    expect(sha256Hex(second)).toBe(sha256Hex(first));
  });

  it('renders a different certificate number to different bytes', async () => {
    const first = await renderCertificatePdf(createSnapshot(), createOptions());
    const second = await renderCertificatePdf(createSnapshot({ number: 'TS-2026-000124' }), createOptions());
    expect(sha256Hex(second)).not.toBe(sha256Hex(first));
  });

  it('writes the name, completion sentence and every detail as text a viewer can extract', async () => {
    const { runs } = await readPage(await renderCertificatePdf(createSnapshot(), createOptions()));
    const texts = runs.map((run) => run.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        'GOLDEN STATE ONLINE TRAFFIC SCHOOL',
        'Certificate of Completion',
        'This certifies that',
        'José Núñez',
        'has successfully completed the',
        'Court-Assigned Defensive Driving Course (4 chapters and final exam)',
        'on November 22, 2026.',
        'TS-2026-000123',
        'November 22, 2026',
        'D1234567',
        '04/17/1990',
        'Superior Court of California, County of Santa Clara',
        'Maria Lopez',
        'School Director',
        'Verify at https://traffic-school.example.com/verify/TS-2026-000123',
      ]),
    );
    expect(texts).toEqual(expect.arrayContaining(['CERTIFICATE NUMBER', 'DRIVER’S LICENSE NUMBER', 'COURT']));
    for (const run of runs) expect(run.size, run.text).toBeGreaterThanOrEqual(9);
  });

  it('prints the school’s address and phone under its name, so a clerk can reach it without a search (decision 062)', async () => {
    const { runs } = await readPage(await renderCertificatePdf(createSnapshot(), createOptions()));
    const school = runWithText(runs, 'GOLDEN STATE ONLINE TRAFFIC SCHOOL');
    const contact = runs.find((run) => run.text.includes('2200 Harbor Boulevard, Suite 140, Costa Mesa, CA 92626'));
    expect(contact?.text).toContain('(714) 555-0142');
    expect(contact?.y).toBeLessThan(school.y);
  });

  it('puts the phone on its own line under an address too long to share one, at the same size', async () => {
    const schoolAddress =
      '2200 Harbor Boulevard, Suite 140, Building C, Costa Mesa, California 92626-1234, United States of America';
    const schoolPhone = '(714) 555-0142 (Monday to Friday, 8 am to 5 pm Pacific)';
    const { runs } = await readPage(
      await renderCertificatePdf(createSnapshot(), createOptions({ schoolAddress, schoolPhone })),
    );
    const address = runWithText(runs, schoolAddress);
    const phone = runWithText(runs, schoolPhone);
    expect(phone.y).toBeLessThan(address.y);
    expect(phone.size).toBe(address.size);
    expect(address.size).toBeGreaterThanOrEqual(9);
  });

  it('names the course once, by its public name, and never the internal rules profile (decision 062)', async () => {
    const texts = (await readPage(await renderCertificatePdf(createSnapshot(), createOptions()))).runs.map(
      (run) => run.text,
    );
    expect(texts.filter((text) => text.includes('Court-Assigned Defensive Driving Course'))).toHaveLength(1);
    expect(texts.join('\n')).not.toMatch(/Standard course|version 1|COURSE RULES/);
  });

  it('prints the school’s approval number for the court’s state when it has one, and no empty line otherwise', async () => {
    const withApproval = await readPage(
      await renderCertificatePdf(createSnapshot(), createOptions({ approval: { state: 'CA', number: 'TEST-0001' } })),
    );
    expect(withApproval.runs.map((run) => run.text)).toEqual(
      expect.arrayContaining(['SCHOOL APPROVAL NO. (CA)', 'TEST-0001']),
    );
    const without = await readPage(await renderCertificatePdf(createSnapshot(), createOptions()));
    expect(without.runs.map((run) => run.text).join('\n')).not.toContain('APPROVAL');
  });

  it('signs with the signer’s name and title under the signature line', async () => {
    const { runs, content } = await readPage(
      await renderCertificatePdf(
        createSnapshot(),
        createOptions({ signer: { name: 'Dana Whitfield', title: 'Director of Instruction' } }),
      ),
    );
    const name = runWithText(runs, 'Dana Whitfield');
    const title = runWithText(runs, 'Director of Instruction');
    // The line: a path that starts at the name's left edge, just above it.
    const moves = [...content.matchAll(/^([\d.]+) ([\d.]+) m$/gm)].map(([, x, y]) => ({ x: Number(x), y: Number(y) }));
    expect(moves.some((move) => move.x === name.x && move.y > name.y && move.y < name.y + 20)).toBe(true);
    expect(name.y).toBeGreaterThan(title.y);
    expect(runs.map((run) => run.text)).not.toContain('Maria Lopez');
  });

  it('draws the signature image above the line when the content has one, and none otherwise', async () => {
    const png = await readFile(new URL('./testdata/signature.png', import.meta.url));
    const { resources } = await readPage(
      await renderCertificatePdf(createSnapshot(), createOptions({ signaturePng: png })),
    );
    expect(resources.lookup(PDFName.of('XObject'), PDFDict).keys()).toHaveLength(1);
  });

  it('says a corrected certificate is one, with the number it replaces, in a banner at the top (decision 025)', async () => {
    const { runs } = await readPage(
      await renderCertificatePdf(createSnapshot({ replaces: 'TS-2026-000099' }), createOptions()),
    );
    const banner = runWithText(runs, 'CORRECTED CERTIFICATE: replaces TS-2026-000099');
    expect(banner.size).toBeGreaterThanOrEqual(12);
    expect(banner.y).toBeGreaterThan(runWithText(runs, 'GOLDEN STATE ONLINE TRAFFIC SCHOOL').y);
    const original = await readPage(await renderCertificatePdf(createSnapshot(), createOptions()));
    expect(original.runs.map((run) => run.text).join('\n')).not.toContain('CORRECTED');
  });

  it("dates the issue on the school's calendar: a pass late in the evening is not issued the next day", async () => {
    // 11:18 pm in California on November 22 is already November 23 in UTC.
    const snapshot = createSnapshot({ completionDate: '2026-11-22', issuedAt: '2026-11-23T07:18:00.000Z' });
    const texts = (await readPage(await renderCertificatePdf(snapshot, createOptions()))).runs.map((run) => run.text);
    expect(texts).toContain('on November 22, 2026.');
    expect(texts.filter((text) => text === 'November 22, 2026')).toHaveLength(1);
    expect(texts).not.toContain('November 23, 2026');
    const inNewYork = await renderCertificatePdf(snapshot, createOptions({ timeZone: 'America/New_York' }));
    expect((await readPage(inNewYork)).runs.map((run) => run.text)).toContain('November 23, 2026');
  });

  it('prints the case or citation number under the court when the student gave one (decision 024), and no empty line otherwise', async () => {
    const withNumber = await readPage(
      await renderCertificatePdf(createSnapshot({ caseNumber: 'CR-2026-0042' }), createOptions()),
    );
    const texts = withNumber.runs.map((run) => run.text);
    expect(texts).toEqual(expect.arrayContaining(['CASE OR CITATION NUMBER', 'CR-2026-0042']));
    const without = await readPage(await renderCertificatePdf(createSnapshot(), createOptions()));
    expect(without.runs.map((run) => run.text)).not.toContain('CASE OR CITATION NUMBER');
  });

  it.each(['José Núñez', 'Zoë Łukasz', 'Đorđe Čolić', 'Nguyễn Thị Ánh', 'Øystein Ærø-Åsheim'])(
    'renders the accented name %s letter for letter',
    async (studentName) => {
      const { runs } = await readPage(await renderCertificatePdf(createSnapshot({ studentName }), createOptions()));
      expect(runWithText(runs, studentName).size).toBe(30);
    },
  );

  it('renders a name typed with combining accents as the precomposed letters', async () => {
    const { runs } = await readPage(
      await renderCertificatePdf(createSnapshot({ studentName: 'Jose\u0301 Nu\u0301n\u0303ez' }), createOptions()),
    );
    runWithText(runs, 'José Núñez');
  });

  it('does not fail on a name with letters the font lacks', async () => {
    const bytes = await renderCertificatePdf(createSnapshot({ studentName: '王小明 Wang' }), createOptions());
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
  });

  it('wraps a 120-letter court name and a long student and school name onto more lines, every text 9 pt or more, on a corrected certificate (decision 062)', async () => {
    const studentName =
      'Maria Guadalupe Fernández-Villaseñor de la Concepción Świętochowska-Đurđević Núñez y Montenegro-Łukasiewicz';
    const schoolName = 'The Exceptionally Long Name of the Online Court-Assigned Traffic Violator School of California';
    const courtName =
      'Superior Court of the State of California for the County of San Bernardino, Traffic Division, Fontana Courthouse, Dept 1';
    expect(courtName).toHaveLength(120);
    const { runs, content } = await readPage(
      await renderCertificatePdf(
        createSnapshot({ studentName, courtName, caseNumber: 'CR-2026-0042', replaces: 'TS-2026-000099' }),
        createOptions({ schoolName, approval: { state: 'CA', number: 'TEST-0001' } }),
      ),
    );

    // Every text-showing operator of the page was read, so none escapes the size check.
    expect(runs).toHaveLength(content.split('\n').filter((line) => /\s(?:Tj|TJ|'|")$/.test(line)).length);
    for (const run of runs) expect(run.size, run.text).toBeGreaterThanOrEqual(9);
    const texts = runs.map((run) => run.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        'CORRECTED CERTIFICATE: replaces TS-2026-000099',
        'Maria Lopez',
        'School Director',
        'SCHOOL APPROVAL NO. (CA)',
        'TEST-0001',
        'CR-2026-0042',
      ]),
    );
    const contact = texts.join('\n');
    expect(contact).toContain('2200 Harbor Boulevard, Suite 140, Costa Mesa, CA 92626');
    expect(contact).toContain('(714) 555-0142');

    // Each long text is its lines, read in order, at one size; every line inside the border's content margin.
    const linesOf = (text: string, size: number) => {
      const words = text.split(' ');
      const lines = runs.filter((run) => run.size === size && words.includes(run.text.split(' ')[0] ?? ''));
      const start = lines.findIndex((run) => text.startsWith(run.text));
      const taken: TextRun[] = [];
      let joined = '';
      for (const run of lines.slice(start)) {
        if (joined === text) break;
        joined = joined === '' ? run.text : `${joined} ${run.text}`;
        taken.push(run);
      }
      expect(joined).toBe(text);
      return taken;
    };
    const court = linesOf(courtName, 10.5);
    expect(court.length).toBeGreaterThan(1);
    expect(court.map((run) => run.x)).toEqual(court.map(() => court[0]?.x));
    const name = linesOf(studentName, runs.find((run) => studentName.startsWith(run.text))?.size ?? 0);
    expect(name.length).toBeGreaterThan(1);
    expect(name[0]?.size).toBeGreaterThanOrEqual(20);
    for (const run of name) expect(run.x).toBeGreaterThanOrEqual(84);
    const school = linesOf(
      schoolName.toUpperCase(),
      runs.find((run) => run.text.startsWith('THE EXCEPTIONALLY'))?.size ?? 0,
    );
    for (const run of school) expect(run.x).toBeGreaterThanOrEqual(84);

    // The facts end above the signature image's room and the QR code (its top at 136 pt).
    for (const run of court) expect(run.y).toBeGreaterThan(140);
  });

  it('draws the verification QR code as vector rectangles, with no image', async () => {
    const verifyUrl = 'https://traffic-school.example.com/verify/TS-2026-000123';
    const { content, resources } = await readPage(
      await renderCertificatePdf(createSnapshot(), createOptions({ verifyUrl })),
    );
    const { modules } = QRCode.create(verifyUrl, { errorCorrectionLevel: 'M' });
    let darkRuns = 0;
    for (let row = 0; row < modules.size; row += 1) {
      for (let column = 0; column < modules.size; column += 1) {
        if (modules.get(row, column) && (column === 0 || !modules.get(row, column - 1))) darkRuns += 1;
      }
    }
    const rectangles = content.split('\n').filter((line) => line.endsWith(' re'));
    expect(rectangles).toHaveLength(darkRuns);
    const images = resources.lookupMaybe(PDFName.of('XObject'), PDFDict);
    expect(images?.keys() ?? []).toEqual([]);
  });

  it('embeds each letter with the same outline as in the font file', async () => {
    const { resources, toUnicode } = await readPage(
      await renderCertificatePdf(createSnapshot({ studentName: 'Zoë Łukasz' }), createOptions()),
    );
    const fonts = resources.lookup(PDFName.of('Font'), PDFDict);
    let compared = 0;
    for (const [name] of fonts.entries()) {
      const font = fonts.lookup(name, PDFDict);
      const descendant = font.lookup(PDFName.of('DescendantFonts'), PDFArray).lookup(0, PDFDict);
      const fontFile = descendant.lookup(PDFName.of('FontDescriptor'), PDFDict).lookup(PDFName.of('FontFile2'));
      if (!(fontFile instanceof PDFRawStream)) throw new Error('no embedded TrueType font');
      const subset = fontkit.create(decodePDFRawStream(fontFile).decode());
      const weight = font.lookup(PDFName.of('BaseFont'))?.toString().includes('Bold') ? 'Bold' : 'Regular';
      const original = fontkit.create(await readFile(new URL(`./fonts/NotoSerif-${weight}.ttf`, import.meta.url)));
      for (const [code, text] of toUnicode.get(name.asString()) ?? []) {
        const expected = original.glyphForCodePoint(text.codePointAt(0) ?? 0).path.toSVG();
        expect(subset.getGlyph(parseInt(code, 16)).path.toSVG(), `${weight} ${text}`).toBe(expected);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('embeds only the glyphs it uses, so a certificate stays small', async () => {
    const bytes = await renderCertificatePdf(createSnapshot(), createOptions());
    expect(bytes.length).toBeLessThan(40_000);
  });

  it('renders fifty certificates in a row, each one different', async () => {
    const hashes = new Set<string>();
    for (let index = 0; index < 50; index += 1) {
      const number = `TS-2026-${String(index).padStart(6, '0')}`;
      hashes.add(sha256Hex(await renderCertificatePdf(createSnapshot({ number }), createOptions())));
    }
    expect(hashes.size).toBe(50);
  });

  it('refuses a verification URL that is not absolute', async () => {
    await expect(
      renderCertificatePdf(createSnapshot(), createOptions({ verifyUrl: '/verify/TS-1' })),
    ).rejects.toThrow();
  });

  it('refuses a completion date that is not YYYY-MM-DD', async () => {
    await expect(
      renderCertificatePdf(createSnapshot({ completionDate: '11/22/2026' }), createOptions()),
    ).rejects.toThrow('Invalid ISO date');
  });

  it('refuses an issuedAt that is not a timestamp', async () => {
    await expect(renderCertificatePdf(createSnapshot({ issuedAt: 'yesterday' }), createOptions())).rejects.toThrow(
      'Invalid issuedAt',
    );
  });
});

describe('sha256Hex', () => {
  it('gives the SHA-256 of the bytes in lowercase hex', () => {
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
