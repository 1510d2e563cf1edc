import { useEffect, useState } from 'react';
import { login, register, sendSmsCode } from '../api/endpoints';
import { storeLogin } from '../auth/authState';
import { enterApp } from '../auth/enterApp';
import {
  DEFAULT_TENANT,
  SMS_RESEND_SECONDS,
  checkAgreement,
  checkNewAccount,
  checkNewPassword,
  checkPhone,
  checkServerId,
  checkSmsCode,
  collect,
} from '../auth/validation';
import { Field } from '../components/Field';
import { useT, type MessageKey } from '../i18n';
import { goTo } from '../routing/useRoute';
import { showToast } from '../state/toast';
import { AuthLayout } from './AuthLayout';
import { ServerIdField } from './ServerIdField';

type RegisterField = 'phone' | 'smsCode' | 'account' | 'password' | 'tenantCode' | 'agreement';

/** Seconds left before the code may be sent again; counts down once a second. */
function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return undefined;
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, setLeft];
}

/** The registration link of an invitation (getRefereeLink) fills the invitation code and server ID. */
export function Register({ inviteCode: invited, tenantCode: linkedTenant }: { inviteCode?: string; tenantCode?: string }) {
  const t = useT();
  const [phone, setPhone] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [tenantCode, setTenantCode] = useState(linkedTenant || DEFAULT_TENANT);
  const [inviteCode, setInviteCode] = useState(invited ?? '');
  const [errors, setErrors] = useState<Partial<Record<RegisterField, MessageKey>>>({});
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [resendIn, startCountdown] = useCountdown();

  async function sendCode() {
    const phoneError = checkPhone(phone);
    setErrors((current) => ({ ...current, phone: phoneError ?? undefined }));
    if (phoneError) return;
    startCountdown(SMS_RESEND_SECONDS);
    try {
      await sendSmsCode(phone.trim(), 'register');
      showToast(t('register.codeSent'), 'success');
    } catch (error) {
      startCountdown(0);
      showToast(t('register.codeFailed', { reason: reasonOf(error) }), 'error');
    }
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const found = collect<RegisterField>({
      phone: checkPhone(phone),
      smsCode: checkSmsCode(smsCode),
      account: checkNewAccount(account),
      password: checkNewPassword(password),
      tenantCode: checkServerId(tenantCode),
      agreement: checkAgreement(agreed),
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await register({
        phone: phone.trim(),
        smsCode: smsCode.trim(),
        account,
        password,
        tenantCode: tenantCode.trim(),
        ...(inviteCode.trim() ? { inviteCode: inviteCode.trim() } : {}),
      });
    } catch (error) {
      setBusy(false);
      showToast(t('register.failed', { reason: reasonOf(error) }), 'error');
      return;
    }
    // The new member is signed in at once; should that fail, the login page takes over.
    try {
      const result = await login({ account, password, tenantCode: tenantCode.trim() });
      enterApp(storeLogin(result), t('register.success'));
    } catch {
      goTo(`#/login?account=${encodeURIComponent(account)}`);
    }
  }

  const error = (field: RegisterField) => (errors[field] ? t(errors[field]!) : undefined);

  return (
    <AuthLayout title={t('register.title')}>
      <form className="form" onSubmit={submit} noValidate aria-label={t('register.title')}>
        <Field
          label={t('register.phone')}
          value={phone}
          onChange={setPhone}
          error={error('phone')}
          inputMode="numeric"
          autoComplete="tel-national"
          name="phone"
        />
        <Field
          label={t('register.smsCode')}
          value={smsCode}
          onChange={setSmsCode}
          error={error('smsCode')}
          inputMode="numeric"
          autoComplete="one-time-code"
          name="smsCode"
          addon={
            <button
              type="button"
              className="button button-secondary button-addon"
              onClick={sendCode}
              disabled={resendIn > 0}
              data-testid="send-code"
            >
              {resendIn > 0 ? t('register.resendIn', { s: resendIn }) : t('register.sendCode')}
            </button>
          }
        />
        <Field
          label={t('register.account')}
          value={account}
          onChange={setAccount}
          error={error('account')}
          hint={t('register.accountHint')}
          autoComplete="username"
          name="account"
        />
        <Field
          label={t('register.password')}
          type="password"
          value={password}
          onChange={setPassword}
          error={error('password')}
          hint={t('register.passwordHint')}
          autoComplete="new-password"
          name="password"
        />
        <ServerIdField label={t('register.serverId')} value={tenantCode} onChange={setTenantCode} error={error('tenantCode')} />
        <Field
          label={t('register.inviteCode')}
          value={inviteCode}
          onChange={setInviteCode}
          autoComplete="off"
          name="inviteCode"
        />
        <label className={errors.agreement ? 'check check-invalid' : 'check'}>
          <input
            type="checkbox"
            name="agreement"
            checked={agreed}
            onChange={(event) => setAgreed(event.target.checked)}
            aria-invalid={errors.agreement ? true : undefined}
          />
          {t('login.agreement')}
        </label>
        <p className="auth-links">
          <a href="#/userpolicy" onClick={(event) => (event.preventDefault(), goTo('#/userpolicy'))}>
            {t('agreement.userTitle')}
          </a>
          <a href="#/hiddenagreement" onClick={(event) => (event.preventDefault(), goTo('#/hiddenagreement'))}>
            {t('agreement.privacyTitle')}
          </a>
        </p>
        {errors.agreement ? (
          <p className="field-error" role="alert">
            {error('agreement')}
          </p>
        ) : null}
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {t('register.submit')}
        </button>
      </form>
      <p className="auth-switch">
        {t('register.haveAccount')}{' '}
        <a href="#/login" onClick={(event) => (event.preventDefault(), goTo('#/login'))}>
          {t('landing.login')}
        </a>
      </p>
    </AuthLayout>
  );
}

/** The server's refusal, or the request's failure, as the toast's reason. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
