import { useState } from 'react';
import { login } from '../api/endpoints';
import { enterApp } from '../auth/enterApp';
import { readSavedLogin, storeLogin, writeSavedLogin } from '../auth/authState';
import {
  DEFAULT_TENANT,
  checkAgreement,
  checkLoginAccount,
  checkLoginPassword,
  checkServerId,
  collect,
} from '../auth/validation';
import { Field } from '../components/Field';
import { useT, type MessageKey } from '../i18n';
import { goTo } from '../routing/useRoute';
import { AgreementCheck } from './AgreementCheck';
import { AuthLayout } from './AuthLayout';
import { ServerIdField } from './ServerIdField';

type LoginField = 'account' | 'password' | 'tenantCode' | 'agreement';

export function Login({ prefillAccount }: { prefillAccount?: string }) {
  const t = useT();
  const saved = readSavedLogin();
  const [account, setAccount] = useState(prefillAccount || saved?.account || '');
  const [password, setPassword] = useState(prefillAccount ? '' : (saved?.password ?? ''));
  const [savePassword, setSavePassword] = useState(saved?.savePassword ?? false);
  const [agreed, setAgreed] = useState(false);
  const [tenantCode, setTenantCode] = useState(saved?.tenantCode || DEFAULT_TENANT);
  const [errors, setErrors] = useState<Partial<Record<LoginField, MessageKey>>>({});
  const [busy, setBusy] = useState(false);

  // Keys, not texts: a language switch re-translates the shown errors.
  const error = (field: LoginField) => (errors[field] ? t(errors[field]!) : undefined);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const found = collect<LoginField>({
      account: checkLoginAccount(account),
      password: checkLoginPassword(password),
      tenantCode: checkServerId(tenantCode),
      agreement: checkAgreement(agreed),
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const result = await login({ account: account.trim(), password, tenantCode: tenantCode.trim() });
      writeSavedLogin({ account: account.trim(), password, tenantCode: tenantCode.trim(), savePassword });
      const session = storeLogin(result);
      enterApp(session, t('login.success'));
    } catch {
      setBusy(false);
    }
  }

  return (
    <AuthLayout title={t('login.title')}>
      <form className="form" onSubmit={submit} noValidate aria-label={t('login.title')}>
        <Field
          label={t('login.account')}
          value={account}
          onChange={setAccount}
          error={error('account')}
          autoComplete="username"
          name="account"
        />
        <Field
          label={t('login.password')}
          type="password"
          value={password}
          onChange={setPassword}
          error={error('password')}
          autoComplete="current-password"
          name="password"
        />
        <ServerIdField label={t('login.serverId')} value={tenantCode} onChange={setTenantCode} error={error('tenantCode')} />
        <label className="check">
          <input type="checkbox" checked={savePassword} onChange={(event) => setSavePassword(event.target.checked)} />
          {t('login.savePassword')}
        </label>
        <AgreementCheck agreed={agreed} onChange={setAgreed} error={error('agreement')} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {t('login.submit')}
        </button>
      </form>
      <p className="auth-switch">
        <a href="#/resetPassword" onClick={(event) => (event.preventDefault(), goTo('#/resetPassword'))} data-testid="forgot-password">
          {t('reset.link')}
        </a>
      </p>
      <p className="auth-switch">
        {t('login.noAccount')}{' '}
        <a href="#/register" onClick={(event) => (event.preventDefault(), goTo('#/register'))}>
          {t('landing.signup')}
        </a>
      </p>
    </AuthLayout>
  );
}
