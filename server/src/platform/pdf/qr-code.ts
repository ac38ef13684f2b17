import {
  fill,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setFillingRgbColor,
  type PDFPage,
  type RGB,
} from 'pdf-lib';
import QRCode from 'qrcode';

/**
 * The QR code is vector art: each run of dark modules in a row is one filled rectangle, so it stays sharp at any zoom
 * and adjacent modules leave no hairline seams. Raw operators, because pdf-lib's drawRectangle wraps every
 * rectangle in its own graphics state and was most of a render's time.
 */
export function drawQrCode(
  page: PDFPage,
  text: string,
  place: { left: number; bottom: number; size: number; color: RGB },
): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const modules = qr.modules.size;
  const { left, bottom, size } = place;
  const moduleSize = size / modules;
  const operators = [pushGraphicsState(), setFillingRgbColor(place.color.red, place.color.green, place.color.blue)];
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
}

/** Three decimals (1/1000 pt) is far finer than any printer, and keeps the content stream short. */
function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
