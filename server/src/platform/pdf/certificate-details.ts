import type { PDFPage } from 'pdf-lib';
import type { Fonts } from './certificate-fonts.ts';
import { CONTENT_LEFT, CONTENT_RIGHT, GOLD, INK, MUTED } from './certificate-style.ts';
import { drawLines, fit, MIN_TEXT_SIZE, type FittedText } from './text-layout.ts';

/** Points from a row's top to its labels' baseline, from a label to its value, between a value's lines, below. */
const ROW = { labelTop: 14, value: 14, valueLine: 13, bottom: 11 };

export interface Detail {
  label: string;
  value: string;
}

export interface DetailsLayout {
  rows: { cells: { x: number; label: FittedText; value: FittedText }[]; height: number }[];
  height: number;
}

/**
 * Rows of facts, each label above its value, between two thin rules. Each cell is as wide as its label or value
 * plus an equal share of the row's spare room, so columns are evenly spaced; in a row too long for the page the
 * short cells keep their width and the long ones share the rest, their text wrapping onto more lines (a 120-letter
 * court name takes two or three lines at the same size, decision 062).
 */
export function layoutDetails(fonts: Fonts, rows: Detail[][]): DetailsLayout {
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
          lineHeight: ROW.valueLine,
        }),
      };
      x += cellWidth;
      return fitted;
    });
    const height =
      ROW.labelTop + ROW.value + ROW.bottom + Math.max(...placed.map((cell) => cell.label.extra + cell.value.extra));
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

export function drawDetails(page: PDFPage, details: DetailsLayout, top: number): void {
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
        y: rowTop - ROW.labelTop,
        color: MUTED,
      });
      drawLines(page, cell.value, { align: 'left', x: cell.x, y: labelBottom - ROW.value, color: INK });
    }
    rowTop -= row.height;
  }
  rule(rowTop);
}
