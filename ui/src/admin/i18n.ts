// The admin page's texts on top of the members' tables, in the page's language.
import { useAtomValue } from 'jotai';
import { useCallback } from 'react';
import { fill, languageAtom, translate, type Language, type MessageKey, type Params } from '../i18n';
import { adminEn, adminVi, adminZh, type AdminKey } from '../i18n/admin';

export type { AdminKey } from '../i18n/admin';

const tables: Record<Language, Record<AdminKey, string>> = { en: adminEn, zh_CN: adminZh, vi_VN: adminVi };

export type AdminTranslate = (key: AdminKey | MessageKey, params?: Params) => string;

function isAdminKey(key: string): key is AdminKey {
  return key in adminEn;
}

export function translateAdmin(lang: Language, key: AdminKey | MessageKey, params?: Params): string {
  return isAdminKey(key) ? fill(tables[lang][key] ?? adminEn[key], params) : translate(lang, key, params);
}

export function useAdminT(): AdminTranslate {
  const lang = useAtomValue(languageAtom);
  return useCallback((key: AdminKey | MessageKey, params?: Params) => translateAdmin(lang, key, params), [lang]);
}
