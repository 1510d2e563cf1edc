import { useAtom } from 'jotai';
import { languageAtom, languages, useT } from '../i18n';

export function LanguagePicker() {
  const t = useT();
  const [language, setLanguage] = useAtom(languageAtom);
  return (
    <div className="language-picker" role="radiogroup" aria-label={t('landing.language')}>
      {languages.map((option) => (
        <button
          key={option.code}
          type="button"
          role="radio"
          aria-checked={language === option.code}
          className={language === option.code ? 'chip chip-active' : 'chip'}
          onClick={() => setLanguage(option.code)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
