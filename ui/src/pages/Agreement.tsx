import { useT } from '../i18n';
import { goTo } from '../routing/useRoute';
import { AuthLayout } from './AuthLayout';

/** The user agreement (/userpolicy) and the privacy agreement (/hiddenagreement) the login asks to accept. */
export function Agreement({ kind }: { kind: 'userpolicy' | 'hiddenagreement' }) {
  const t = useT();
  const [title, body] =
    kind === 'userpolicy' ? (['agreement.userTitle', 'agreement.userBody'] as const) : (['agreement.privacyTitle', 'agreement.privacyBody'] as const);
  return (
    <AuthLayout title={t(title)}>
      <p className="agreement-text" data-testid="agreement-text">
        {t(body)}
      </p>
      <p className="auth-switch">
        <a href="#/login" onClick={(event) => (event.preventDefault(), goTo('#/login'))}>
          {t('agreement.back')}
        </a>
      </p>
    </AuthLayout>
  );
}
