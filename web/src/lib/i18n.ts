import { useMemo, useSyncExternalStore } from 'react';
import en from '../locales/en.json';

/**
 * The interface's two languages (spec 1: English and Spanish), in one small module of our own
 * (decision 021): the app needs nested keys, {{name}} interpolation, plural forms (key_one,
 * key_other) and a language switch that re-renders the page, which is a few dozen lines, where
 * i18next and react-i18next added to the script of every first visit. English comes with the
 * first script and is every missing key's fallback; Spanish is its own file, fetched when it is
 * first needed.
 */

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
const LANGUAGE_KEY = 'lang';

type Texts = { [key: string]: string | Texts };
export type TOptions = Record<string, unknown> & { count?: number; defaultValue?: string };
export type TFunction = (key: string, options?: TOptions) => string;

const texts: Partial<Record<Language, Texts>> = { en };

function initialLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  if (stored === 'en' || stored === 'es') return stored;
  return navigator.language.toLowerCase().startsWith('es') ? 'es' : 'en';
}

let current: Language = initialLanguage();
const listeners = new Set<() => void>();

function lookup(tree: Texts | undefined, key: string): string | undefined {
  let node: string | Texts | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

const pluralRules = new Map<Language, Intl.PluralRules>();
function pluralForm(language: Language, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}

/** The text of `key` in `language` (else English), its plural form for a count, values filled in. */
function translate(language: Language, key: string, options?: TOptions): string {
  const find = (name: string) => lookup(texts[language], name) ?? lookup(texts.en, name);
  const count = options?.count;
  const text =
    (typeof count === 'number' ? (find(`${key}_${pluralForm(language, count)}`) ?? find(`${key}_other`)) : undefined) ??
    find(key) ??
    options?.defaultValue ??
    key;
  if (!options) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    options[name] === undefined ? whole : String(options[name]),
  );
}

async function loadTexts(language: Language): Promise<void> {
  if (texts[language]) return;
  if (language === 'es') texts.es = (await import('../locales/es.json')).default as Texts;
}

/** The app's i18n handle: the language now, a t() in it, and the switch. */
const i18n = {
  get language(): Language {
    return current;
  },
  t: ((key, options) => translate(current, key, options)) as TFunction,
  async changeLanguage(language: Language): Promise<void> {
    await loadTexts(language);
    current = language;
    document.documentElement.lang = language;
    for (const listener of listeners) listener();
  },
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The page's t() and the i18n handle; the component renders again when the language changes. */
export function useTranslation(): { t: TFunction; i18n: typeof i18n } {
  const language = useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
  const t = useMemo<TFunction>(() => (key, options) => translate(language, key, options), [language]);
  return { t, i18n };
}

/** Resolves once the first language's texts are in: main.tsx renders after it. */
export const i18nReady: Promise<void> = i18n.changeLanguage(current).catch(async () => {
  // Spanish could not be fetched: the page opens in English rather than not at all.
  await i18n.changeLanguage('en');
});

export function setLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  void i18n.changeLanguage(language);
}

export default i18n;
