import { appPathFor } from '../routing/guard';
import { appStore } from '../state/store';
import { carryToast, showToast } from '../state/toast';
import { authAtom, type AuthSession } from './authState';

/**
 * Opens the chat home at the member's app path /1/{memberId}/#/. Another path loads the page
 * afresh (it reads the stored login); on the same path only the hash changes, so the session is
 * put into the store here. toast, when given, is shown on the page it opens.
 */
export function enterApp(session: AuthSession, toast?: string): void {
  const path = appPathFor(session.user.id);
  if (window.location.pathname === path) {
    appStore.set(authAtom, session);
    if (toast) showToast(toast, 'success');
    window.location.hash = '#/';
    return;
  }
  if (toast) carryToast(toast, 'success');
  window.location.assign(`${path}#/`);
}
