import { setCharacterSpacing, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';

/**
 * No text on the certificate is smaller than this (decision 062): a clerk reads it printed, often
 * photocopied, and a court name shrunk to 7 pt to fit one line is hard to read on a copy.
 */
export const MIN_TEXT_SIZE = 9;

/** Text set to fit a width: its size and its lines. */
export interface FittedText {
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

export interface FitStyle {
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
export function fit(text: string, style: FitStyle): FittedText {
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

/** `first`'s lines, then `second`'s, set as `first` is (both fitted in one style). */
export function stack(first: FittedText, second: FittedText): FittedText {
  const lines = [...first.lines, ...second.lines];
  return {
    ...first,
    lines,
    width: Math.max(first.width, second.width),
    extra: (lines.length - 1) * first.lineHeight,
  };
}

/** Draws each line from baseline `y` down; returns the last line's baseline. */
export function drawLines(
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
