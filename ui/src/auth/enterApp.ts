import { appPathFor } from '../routing/guard';
import { appStore } from '../state/store';
import { authAtom, type AuthSession } from './authState';

/**
 * Opens the chat home at the member's app path /1/{memberId}/#/. Another path loads the page
 * afresh (it reads the stored login); on the same path only the hash changes, so the session is
 * put into the store here.
 */
export function enterApp(session: AuthSession): void {
  const path = appPathFor(session.user.id);
  if (window.location.pathname === path) {
    appStore.set(authAtom, session);
    window.location.hash = '#/';
    return;
  }
  window.location.assign(`${path}#/`);
}
