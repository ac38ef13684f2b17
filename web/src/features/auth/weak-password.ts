import type { TFunction } from '../../lib/i18n.ts';
import { detailsOf } from '../../lib/api.ts';

/** Why the server refused a new staff password as easy to guess (WEAK_PASSWORD), in the reader's language; else undefined. */
export function weakPasswordMessage(error: unknown, t: TFunction): string | undefined {
  const details = detailsOf(error, 'WEAK_PASSWORD');
  if (!details) return undefined;
  return details.reason === 'contains_name' ? t('passwords.containsName') : t('passwords.tooGuessable');
}
