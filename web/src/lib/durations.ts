import type { TFunction } from './i18n.ts';

/** "7 min 30 s", "1 h 5 min", "0 s" in the page's language. */
export function formatDuration(totalSeconds: number, t: TFunction): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const parts: string[] = [];
  if (hours > 0) parts.push(t('seatTime.units.hours', { value: hours }));
  if (minutes > 0) parts.push(t('seatTime.units.minutes', { value: minutes }));
  if (rest > 0 || parts.length === 0) parts.push(t('seatTime.units.seconds', { value: rest }));
  return parts.join(' ');
}

/** "4 hours" for a whole number of hours (in the page's language), otherwise as formatDuration. */
export function formatLimit(totalSeconds: number, t: TFunction, language: string): string {
  if (totalSeconds % 3600 !== 0) return formatDuration(totalSeconds, t);
  return new Intl.NumberFormat(language, { style: 'unit', unit: 'hour', unitDisplay: 'long' }).format(
    totalSeconds / 3600,
  );
}
