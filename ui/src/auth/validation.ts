// Client-side checks of the login and registration forms (spec accounts.md section 5).
import type { MessageKey } from '../i18n';

export const SMS_RESEND_SECONDS = 60;
export const DEFAULT_TENANT = 'x0001';

const MAINLAND_MOBILE = /^1[3-9]\d{9}$/;
const LETTERS_DIGITS = /^[A-Za-z0-9]+$/;
const TENANT_CODE = /^[A-Za-z0-9_-]{1,32}$/;

export type Check = MessageKey | null;

export function checkPhone(phone: string): Check {
  if (!phone.trim()) return 'valid.phoneEmpty';
  return MAINLAND_MOBILE.test(phone.trim()) ? null : 'valid.phoneInvalid';
}

export function checkSmsCode(code: string): Check {
  return code.trim() ? null : 'valid.smsEmpty';
}

export function checkNewAccount(account: string): Check {
  if (!account) return 'valid.accountEmpty';
  if (!LETTERS_DIGITS.test(account)) return 'valid.accountChars';
  return account.length >= 6 ? null : 'valid.accountShort';
}

export function checkNewPassword(password: string): Check {
  if (!password) return 'valid.passwordEmpty';
  if (!LETTERS_DIGITS.test(password)) return 'valid.passwordChars';
  return password.length >= 4 ? null : 'valid.passwordShort';
}

export function checkServerId(code: string): Check {
  if (!code.trim()) return 'valid.serverIdEmpty';
  return TENANT_CODE.test(code.trim()) ? null : 'valid.serverIdInvalid';
}

export function checkLoginAccount(account: string): Check {
  return account.trim() ? null : 'valid.loginAccountEmpty';
}

export function checkLoginPassword(password: string): Check {
  return password ? null : 'valid.passwordEmpty';
}

export function checkAgreement(ticked: boolean): Check {
  return ticked ? null : 'valid.agreement';
}

/** The first failing check per field; an empty object means the form may be sent. */
export function collect<F extends string>(checks: Record<F, Check>): Partial<Record<F, MessageKey>> {
  const errors: Partial<Record<F, MessageKey>> = {};
  for (const field of Object.keys(checks) as F[]) {
    const error = checks[field];
    if (error) errors[field] = error;
  }
  return errors;
}
