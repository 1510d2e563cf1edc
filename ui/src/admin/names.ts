import { useAtomValue } from 'jotai';
import { languageAtom, languages } from '../i18n';

/** The most ids one directory call names (the server's bound). */
export const MAX_IDS = 500;

/** A datetime-local input's value as the RFC 3339 time the audit API takes; "" stays "". */
export function localToRfc3339(value: string): string {
  if (!value) return '';
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? '' : at.toISOString();
}

/** A time (ms) as people read it in the page's language. */
export function readableTime(ms: number, lang: string): string {
  return new Date(ms).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** The page's language as a BCP 47 tag, for dates. */
export function useLang(): string {
  const lang = useAtomValue(languageAtom);
  return languages.find((l) => l.code === lang)?.htmlLang ?? 'en';
}
