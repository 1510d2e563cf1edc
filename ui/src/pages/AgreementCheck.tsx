import { useT } from '../i18n';
import { goTo } from '../routing/useRoute';

/** The "I have read and agree" box of the login and sign-up forms, with links to both agreements. */
export function AgreementCheck({ agreed, onChange, error }: { agreed: boolean; onChange: (agreed: boolean) => void; error?: string }) {
  const t = useT();
  return (
    <>
      <label className={error ? 'check check-invalid' : 'check'}>
        <input
          type="checkbox"
          name="agreement"
          checked={agreed}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error ? true : undefined}
        />
        {t('login.agreement')}
      </label>
      <p className="auth-links">
        <a href="#/userpolicy" onClick={(event) => (event.preventDefault(), goTo('#/userpolicy'))} data-testid="open-userpolicy">
          {t('agreement.userTitle')}
        </a>
        <a href="#/hiddenagreement" onClick={(event) => (event.preventDefault(), goTo('#/hiddenagreement'))}>
          {t('agreement.privacyTitle')}
        </a>
      </p>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
