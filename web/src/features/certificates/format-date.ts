/** Spec 2: the generated date in short US format (11/22/2026), whatever the interface language. */
export function formatShortUsDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { timeZone: 'UTC' });
}
