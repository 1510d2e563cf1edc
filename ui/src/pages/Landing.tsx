import { useAtomValue } from 'jotai';
import { authAtom } from '../auth/authState';
import { useT } from '../i18n';
import { enterApp } from '../auth/enterApp';
import { goTo } from '../routing/useRoute';
import { AuthLayout } from './AuthLayout';

export function Landing() {
  const t = useT();
  const auth = useAtomValue(authAtom);
  return (
    <AuthLayout title={t('landing.title')}>
      <p className="auth-lead">{t('landing.lead')}</p>
      {auth ? (
        <div className="stack">
          <p className="muted">{t('landing.signedInAs', { name: auth.user.name || auth.user.code })}</p>
          <button type="button" className="button button-primary button-block" onClick={() => enterApp(auth)}>
            {t('landing.enter')}
          </button>
        </div>
      ) : (
        <div className="stack">
          <button type="button" className="button button-primary button-block" onClick={() => goTo('#/login')}>
            {t('landing.login')}
          </button>
          <button type="button" className="button button-secondary button-block" onClick={() => goTo('#/register')}>
            {t('landing.signup')}
          </button>
        </div>
      )}
    </AuthLayout>
  );
}
