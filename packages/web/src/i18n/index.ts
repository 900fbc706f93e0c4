import { RELEASE } from '@fleetkeep/core';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, type Language, languageFile } from './languages.ts';

/** dayjs month and weekday names per language, each loaded on demand. */
const DAYJS_LOCALES: Record<Exclude<Language, 'en'>, () => Promise<unknown>> = {
  ru: () => import('dayjs/locale/ru'),
  es: () => import('dayjs/locale/es'),
  ro: () => import('dayjs/locale/ro'),
  nl: () => import('dayjs/locale/nl'),
  'pt-br': () => import('dayjs/locale/pt-br'),
  bg: () => import('dayjs/locale/bg'),
  et: () => import('dayjs/locale/et'),
  az: () => import('dayjs/locale/az'),
  hr: () => import('dayjs/locale/hr'),
  fi: () => import('dayjs/locale/fi'),
  fr: () => import('dayjs/locale/fr'),
  tr: () => import('dayjs/locale/tr'),
  pl: () => import('dayjs/locale/pl'),
  hu: () => import('dayjs/locale/hu'),
  de: () => import('dayjs/locale/de'),
  it: () => import('dayjs/locale/it'),
  sr: () => import('dayjs/locale/sr'),
  cs: () => import('dayjs/locale/cs'),
  el: () => import('dayjs/locale/el'),
  th: () => import('dayjs/locale/th'),
  uk: () => import('dayjs/locale/uk'),
  lt: () => import('dayjs/locale/lt'),
};

const loaded = new Set<Language>();

/** GET /i18n/{lang}.json?v={release} (spec §7), once per language. */
async function loadBundle(lang: Language): Promise<void> {
  if (loaded.has(lang)) return;
  const res = await fetch(`/i18n/${languageFile(lang)}.json?v=${RELEASE}`);
  if (!res.ok) throw new Error(`language file ${lang}: HTTP ${res.status}`);
  const bundle = (await res.json()) as Record<string, unknown>;
  i18next.addResourceBundle(lang, 'translation', bundle, true, true);
  loaded.add(lang);
}

export async function initI18n(lang: Language): Promise<void> {
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: DEFAULT_LANGUAGE,
    lowerCaseLng: true,
    supportedLngs: false,
    resources: {},
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await setLanguage(lang);
}

/** Loads the language (and English for fallback) and re-renders everything in it. */
export async function setLanguage(lang: Language): Promise<void> {
  await Promise.all([
    loadBundle(DEFAULT_LANGUAGE),
    loadBundle(lang).catch(() => undefined),
    lang === 'en' ? undefined : DAYJS_LOCALES[lang]().catch(() => undefined),
  ]);
  document.documentElement.lang = lang;
  await i18next.changeLanguage(lang);
}

/** The dayjs locale name of the current language. */
export function dayjsLocale(): string {
  const lang = i18next.language;
  return dayjs.Ls[lang] ? lang : 'en';
}

export { i18next };
