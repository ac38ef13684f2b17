import { rgb } from 'pdf-lib';

/** The certificate's page (US Letter, landscape) and the content's margins inside the double border, in points. */
export const PAGE_WIDTH = 792;
export const PAGE_HEIGHT = 612;
export const CENTER_X = PAGE_WIDTH / 2;
export const CONTENT_LEFT = 84;
export const CONTENT_RIGHT = PAGE_WIDTH - 84;

export const NAVY = rgb(0.1, 0.18, 0.33);
export const GOLD = rgb(0.68, 0.54, 0.24);
export const INK = rgb(0.13, 0.13, 0.15);
export const MUTED = rgb(0.38, 0.38, 0.42);
export const ALERT = rgb(0.62, 0.1, 0.08);
