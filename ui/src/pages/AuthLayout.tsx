import { LanguagePicker } from '../components/LanguagePicker';
import { useT } from '../i18n';

/** The frame of landing, login and register: brand panel and a form card. */
export function AuthLayout({ title, children }: { title: string; children: React.ReactNode }) {
  const t = useT();
  return (
    <div className="auth-page">
      <aside className="auth-brand">
        <div className="brand-mark" aria-hidden="true">
          E
        </div>
        <h2>{t('app.name')}</h2>
        <p>{t('app.tagline')}</p>
        <p className="brand-note" data-testid="storage-note">
          {t('app.storageNote')}
        </p>
      </aside>
      <main className="auth-main">
        <div className="auth-top">
          <span className="auth-top-brand" aria-hidden="true">
            <span className="brand-mark brand-mark-small">E</span>
            {t('app.name')}
          </span>
          <LanguagePicker />
        </div>
        <section className="auth-card" aria-labelledby="auth-title">
          <h1 id="auth-title">{title}</h1>
          {children}
        </section>
      </main>
    </div>
  );
}
