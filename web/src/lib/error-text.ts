import type { TFunction } from './i18n.ts';
import type { ErrorCode } from '@ts/contract';
import { ApiError } from './api.ts';
import { formatDay, formatMoment } from './dates.ts';

/**
 * What a page says for a failed call, in the interface language: the translation of the API's
 * error code (`apiErrors.<CODE>`, filled from the code's details), never the server's English
 * message. A failure that is not the API speaking (no answer, a proxy's page, a code this build
 * does not know) and a server failure say the generic `errors.unexpected`.
 *
 * Decision 060: a failure the person cannot act on (the generic words, any 5xx) ends with a line
 * naming the request ("Reference: <id>", `errors.reference`), which support finds the server's log
 * lines by. The page shows it on a line of its own (Alert keeps line breaks).
 */
export function errorText(error: unknown, t: TFunction): string {
  if (!(error instanceof ApiError) || !error.fromApi || error.code === 'UNKNOWN' || error.code === 'INTERNAL') {
    return unexpectedErrorText(error, t);
  }
  const text = t(`apiErrors.${error.code}`, valuesOf(error.code, error.details));
  return error.status >= 500 ? withReference(text, error, t) : text;
}

/** The generic words for a failure, with the request's reference when the server named it (decision 060). */
export function unexpectedErrorText(error: unknown, t: TFunction): string {
  return withReference(t('errors.unexpected'), error, t);
}

function withReference(text: string, error: unknown, t: TFunction): string {
  const id = error instanceof ApiError ? error.requestId : undefined;
  return id === undefined ? text : `${text}\n${t('errors.reference', { id })}`;
}

/** The {{placeholders}} of a code's translation, from its details (the contract's ERROR_DETAILS). */
function valuesOf(code: ErrorCode, details: Record<string, unknown>): Record<string, string | number> {
  switch (code) {
    case 'CHAPTER_LOCKED':
      return { chapter: Array.isArray(details.missingChapters) ? Number(details.missingChapters[0]) : '' };
    case 'NO_ATTEMPTS_LEFT':
      return { attempts: Number(details.attempts) };
    case 'ATTEMPT_WAIT':
      return { time: formatMoment(String(details.opens_at)) };
    case 'COMPLETION_WINDOW_CLOSED':
      return { date: formatDay(String(details.ended_on)) };
    case 'SEAT_TIME_REQUIRED':
      return { minutes: Math.ceil(Number(details.remainingSeconds) / 60) };
    default:
      return {};
  }
}
