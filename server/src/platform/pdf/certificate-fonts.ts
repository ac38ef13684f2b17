import { readFile } from 'node:fs/promises';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

interface FontBytes {
  regular: Uint8Array;
  bold: Uint8Array;
}

export interface Fonts {
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

/** Both weights embedded in `doc` as subsets named with the given tags (PDF 32000-1, 9.6.4). */
export async function embedCertificateFonts(doc: PDFDocument, tags: { regular: string; bold: string }): Promise<Fonts> {
  const bytes = await loadFontBytes();
  doc.registerFontkit(cachingFontkit);
  return {
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
}
