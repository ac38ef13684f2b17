import type { FastifyRequest } from 'fastify';

export type Language = 'en' | 'es';

/** The language course texts are answered in: Spanish when the browser asks for it, else English. */
export function requestLanguage(request: FastifyRequest): Language {
  const header = request.headers['accept-language'];
  return typeof header === 'string' && header.trim().toLowerCase().startsWith('es') ? 'es' : 'en';
}

/** A translated column, falling back to English where the Spanish is missing. */
export function pick(language: Language, en: string, es: string | null): string {
  return language === 'es' && es ? es : en;
}
