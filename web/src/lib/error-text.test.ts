// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@ts/contract';
import en from '../locales/en.json';
import es from '../locales/es.json';
import { ApiError, NetworkError } from './api.ts';
import { errorText, unexpectedErrorText } from './error-text.ts';
import i18n from './i18n.ts';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('what a page says for a failed call (decision 018: codes, not server English)', () => {
  it('has an English and a Spanish text for every error code of the contract', () => {
    for (const code of ERROR_CODES) {
      expect(en.apiErrors[code], code).toEqual(expect.any(String));
      expect(es.apiErrors[code], code).toEqual(expect.any(String));
    }
    expect(Object.keys(en.apiErrors).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('says the code in the interface language, not the message the server wrote', async () => {
    const error = new ApiError(400, 'OWN_ACCOUNT', 'You cannot disable or demote your own account.');
    expect(errorText(error, i18n.t)).toBe('You cannot disable or demote your own account.');

    await i18n.changeLanguage('es');
    expect(errorText(error, i18n.t)).toBe('No puede desactivar ni bajar de rol su propia cuenta.');
  });

  it("fills a code's text from its details", async () => {
    await i18n.changeLanguage('es');
    const locked = new ApiError(409, 'CHAPTER_LOCKED', 'Please complete chapter 2 first.', { missingChapters: [2, 3] });
    expect(errorText(locked, i18n.t)).toBe('Primero complete el capítulo 2.');
    const seat = new ApiError(409, 'SEAT_TIME_REQUIRED', 'Please spend at least 3 more minutes.', {
      scope: 'module',
      requiredSeconds: 600,
      countedSeconds: 430,
      remainingSeconds: 170,
    });
    expect(errorText(seat, i18n.t)).toBe('Dedique 3 minutos más al curso antes de continuar.');
  });

  it('ends a server failure with its request id, as a reference for support, in the interface language (decision 060)', async () => {
    const failed = new ApiError(500, 'INTERNAL', 'Something went wrong.');
    failed.requestId = 'b7e1c2d4-5f60-4a1b-9c8d-0e1f2a3b4c5d';
    expect(errorText(failed, i18n.t)).toBe(
      'Something went wrong. Please try again.\nReference: b7e1c2d4-5f60-4a1b-9c8d-0e1f2a3b4c5d',
    );
    await i18n.changeLanguage('es');
    expect(errorText(failed, i18n.t)).toBe(
      'Algo salió mal. Inténtelo de nuevo.\nReferencia: b7e1c2d4-5f60-4a1b-9c8d-0e1f2a3b4c5d',
    );
  });

  it('ends a translated 5xx with the reference too, and the generic words of a page that has its own', () => {
    const down = new ApiError(503, 'SERVICE_UNAVAILABLE', 'Reconnecting.');
    down.requestId = 'req-503';
    expect(errorText(down, i18n.t)).toBe(`${i18n.t('apiErrors.SERVICE_UNAVAILABLE')}\nReference: req-503`);
    expect(unexpectedErrorText(down, i18n.t)).toBe(`${i18n.t('errors.unexpected')}\nReference: req-503`);
    expect(unexpectedErrorText(new NetworkError(new TypeError('Failed to fetch')), i18n.t)).toBe(
      i18n.t('errors.unexpected'),
    );
  });

  it('names no reference where the words say what to do, or where the server said nothing', () => {
    const refused = new ApiError(400, 'OWN_ACCOUNT', 'You cannot disable or demote your own account.');
    refused.requestId = 'req-1';
    expect(errorText(refused, i18n.t)).toBe('You cannot disable or demote your own account.');
    expect(errorText(new ApiError(500, 'INTERNAL', 'Something went wrong.'), i18n.t)).toBe(i18n.t('errors.unexpected'));
  });

  it('says the generic words when the API said nothing readable or failed itself', () => {
    const unexpected = i18n.t('errors.unexpected');
    expect(errorText(new NetworkError(new TypeError('Failed to fetch')), i18n.t)).toBe(unexpected);
    expect(errorText(new ApiError(502, 'UNKNOWN', 'Bad Gateway', {}, false), i18n.t)).toBe(unexpected);
    expect(errorText(new ApiError(500, 'INTERNAL', 'Something went wrong.'), i18n.t)).toBe(unexpected);
    expect(errorText(new Error('boom'), i18n.t)).toBe(unexpected);
  });
});
