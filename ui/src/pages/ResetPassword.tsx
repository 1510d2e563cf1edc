import { useEffect, useState } from 'react';
import { login } from '../api/endpoints';
import { request } from '../api/http';
import { storeLogin } from '../auth/authState';
import { enterApp } from '../auth/enterApp';
import { DEFAULT_TENANT, SMS_RESEND_SECONDS, checkPhone, checkServerId, checkSmsCode, collect } from '../auth/validation';
import { Field } from '../components/Field';
import { useT, type MessageKey } from '../i18n';
import { goTo } from '../routing/useRoute';
import { forgetPassword } from '../settings/api';
import { checkNewPassword } from '../settings/logic';
import { showToast } from '../state/toast';
import { AuthLayout } from './AuthLayout';

type ResetField = 'phone' | 'smsCode' | 'password' | 'tenantCode';

/** Route /resetPassword: phone, SMS code with a resend countdown, the new password twice, then log in. */
export function ResetPassword() {
  const t = useT();
  const [phone, setPhone] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [tenantCode, setTenantCode] = useState(DEFAULT_TENANT);
  const [errors, setErrors] = useState<Partial<Record<ResetField, MessageKey>>>({});
  const [busy, setBusy] = useState(false);
  const [resendIn, setResendIn] = useState(0);

  useEffect(() => {
    if (resendIn <= 0) return undefined;
    const timer = setTimeout(() => setResendIn((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [resendIn]);

  async function sendCode() {
    const phoneError = checkPhone(phone);
    setErrors((current) => ({ ...current, phone: phoneError ?? undefined }));
    if (phoneError) return;
    setResendIn(SMS_RESEND_SECONDS);
    try {
      const query = new URLSearchParams({ phone: phone.trim(), type: 'reset', tenantCode: tenantCode.trim() });
      await request<null>('GET', `/v1/member/sms/send?${query}`);
      showToast(t('register.codeSent'), 'success');
    } catch {
      setResendIn(0);
    }
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const found = collect<ResetField>({
      phone: checkPhone(phone),
      smsCode: checkSmsCode(smsCode),
      password: checkNewPassword(password, confirm),
      tenantCode: checkServerId(tenantCode),
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const body = { phone: phone.trim(), smsCode: smsCode.trim(), password, confirmPassword: confirm, tenantCode: tenantCode.trim() };
      await forgetPassword(body);
      showToast(t('reset.done'), 'success');
      const result = await login({ account: body.phone, password, tenantCode: body.tenantCode });
      enterApp(storeLogin(result));
    } catch (error) {
      showToast((error as Error).message, 'error');
      setBusy(false);
    }
  }

  const err = (field: ResetField) => (errors[field] ? t(errors[field]!) : undefined);
  return (
    <AuthLayout title={t('reset.title')}>
      <form className="form" onSubmit={submit} noValidate aria-label={t('reset.title')}>
        <Field label={t('register.phone')} value={phone} onChange={setPhone} error={err('phone')} name="phone" inputMode="tel" />
        <Field
          label={t('register.smsCode')}
          value={smsCode}
          onChange={setSmsCode}
          error={err('smsCode')}
          name="smsCode"
          addon={
            <button type="button" className="button button-secondary" disabled={resendIn > 0} onClick={() => void sendCode()} data-testid="send-code">
              {resendIn > 0 ? t('register.resendIn', { s: resendIn }) : t('register.sendCode')}
            </button>
          }
        />
        <Field label={t('settings.newPassword')} type="password" value={password} onChange={setPassword} error={err('password')} name="password" hint={t('settings.passwordRule')} />
        <Field label={t('settings.confirmPassword')} type="password" value={confirm} onChange={setConfirm} name="confirmPassword" />
        <Field label={t('register.serverId')} value={tenantCode} onChange={setTenantCode} error={err('tenantCode')} name="tenantCode" />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {t('reset.submit')}
        </button>
      </form>
      <p className="auth-switch">
        <a href="#/login" onClick={(event) => (event.preventDefault(), goTo('#/login'))}>
          {t('landing.login')}
        </a>
      </p>
    </AuthLayout>
  );
}
