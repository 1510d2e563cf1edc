import { atom, useAtomValue } from 'jotai';
import { useCallback } from 'react';
import { en, type MessageKey, type Table } from './en';
import { vi_VN } from './vi_VN';
import { zh_CN } from './zh_CN';
import { readJSON, writeJSON } from '../state/localStore';
import { appStore } from '../state/store';

export type { MessageKey } from './en';

/** Language codes as the server's Accept-Language expects them. */
export type Language = 'en' | 'zh_CN' | 'vi_VN';

/** label: the short chip text; name: the language as its speakers write it */
export const languages: { code: Language; label: string; name: string; htmlLang: string }[] = [
  { code: 'en', label: 'EN', name: 'English', htmlLang: 'en' },
  { code: 'zh_CN', label: '中文', name: '中文', htmlLang: 'zh-CN' },
  { code: 'vi_VN', label: 'Tiếng Việt', name: 'Tiếng Việt', htmlLang: 'vi' },
];

const tables: Record<Language, Table> = { en, zh_CN, vi_VN };

function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'zh_CN' || value === 'vi_VN';
}

function storedLanguage(): Language {
  const stored = readJSON<string>('language');
  return isLanguage(stored) ? stored : 'en';
}

const baseLanguageAtom = atom<Language>(storedLanguage());

/** The chosen interface language; writing it persists the choice. */
export const languageAtom = atom(
  (get) => get(baseLanguageAtom),
  (_get, set, next: Language) => {
    writeJSON('language', next);
    document.documentElement.lang = languages.find((l) => l.code === next)?.htmlLang ?? 'en';
    set(baseLanguageAtom, next);
  },
);

export function currentLanguage(): Language {
  return appStore.get(languageAtom);
}

export type Params = Record<string, string | number>;

/** The text with its {name} placeholders filled from params. */
export function fill(text: string, params?: Params): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function translate(lang: Language, key: MessageKey, params?: Params): string {
  return fill(tables[lang][key] ?? en[key], params);
}

/** Translates outside React (toasts raised by the websocket client or the fetch layer). */
export function t(key: MessageKey, params?: Params): string {
  return translate(currentLanguage(), key, params);
}

export type Translate = (key: MessageKey, params?: Params) => string;

export function useT(): Translate {
  const lang = useAtomValue(languageAtom);
  return useCallback((key: MessageKey, params?: Params) => translate(lang, key, params), [lang]);
}
