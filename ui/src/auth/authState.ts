import { atom } from 'jotai';
import type { LoginResult, UserInfo } from '../api/types';
import { readJSON, removeKey, writeJSON } from '../state/localStore';
import { appStore } from '../state/store';

export interface AuthSession {
  token: string;
  /** base64 of the 32-byte AES-256-GCM key of the websocket frames */
  wsKey: string;
  user: UserInfo;
}

/** The login form's remembered values; the password only when "save password" was ticked. */
export interface SavedLogin {
  account: string;
  password: string;
  tenantCode: string;
  savePassword: boolean;
}

function isSession(value: AuthSession | null): value is AuthSession {
  return !!value && typeof value.token === 'string' && !!value.token && !!value.user?.id;
}

function loadSession(): AuthSession | null {
  const stored = readJSON<AuthSession>('auth');
  return isSession(stored) ? stored : null;
}

export const authAtom = atom<AuthSession | null>(loadSession());

export function currentAuth(): AuthSession | null {
  return appStore.get(authAtom);
}

/** Persists a login; the app page reads it when it loads (see enterApp). */
export function storeLogin(result: LoginResult): AuthSession {
  const { token, wsKey, ...user } = result;
  const session: AuthSession = { token, wsKey, user };
  writeJSON('auth', session);
  return session;
}

/** Replaces the signed-in member's profile (push 46), keeping the token and key. */
export function updateUser(user: UserInfo): void {
  const current = appStore.get(authAtom);
  if (!current || current.user.id !== user.id) return;
  const session: AuthSession = { ...current, user: { ...current.user, ...user } };
  writeJSON('auth', session);
  appStore.set(authAtom, session);
}

export function clearAuth(): void {
  removeKey('auth');
  appStore.set(authAtom, null);
}

export function readSavedLogin(): SavedLogin | null {
  return readJSON<SavedLogin>('savedLogin');
}

export function writeSavedLogin(saved: SavedLogin): void {
  writeJSON('savedLogin', saved.savePassword ? saved : { ...saved, password: '' });
}
