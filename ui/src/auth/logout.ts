// Logout: clears token, user info, recents and the current chat, then goes to the login page
// after 500 ms (spec accounts.md section 4). A 401 anywhere and a session-end push end here too.
import { mutate } from 'swr';
import { logoutOnServer } from '../api/endpoints';
import { discardSessionUpdates } from '../chat/sessionCache';
import { ackedUpToAtom, draftsAtom, liveDroppedAtom, liveMessagesAtom, readMarksAtom } from '../state/chat';
import { removeKey } from '../state/localStore';
import { appStore } from '../state/store';
import { carryToast, showToast } from '../state/toast';
import { paneAtom } from '../state/ui';
import { stopSocket } from '../ws/socket';
import { authAtom } from './authState';

export const LOGOUT_REDIRECT_MS = 500;
const NOTICE_MS = 4000;

let loggingOut = false;

export interface LogoutOptions {
  /** shown as an error toast (login expired, kicked out, banned) */
  notice?: string;
  /** false when the token is already dead (401, session end) */
  callServer: boolean;
}

export function logout({ notice, callServer }: LogoutOptions): void {
  if (loggingOut) return;
  loggingOut = true;
  if (notice) showToast(notice, 'error', NOTICE_MS);
  if (callServer) void logoutOnServer().catch(() => null);
  stopSocket();
  removeKey('auth');
  discardSessionUpdates();
  setTimeout(() => {
    appStore.set(authAtom, null);
    appStore.set(paneAtom, { kind: 'none' });
    appStore.set(liveMessagesAtom, {});
    appStore.set(liveDroppedAtom, {});
    appStore.set(readMarksAtom, {});
    appStore.set(ackedUpToAtom, {});
    appStore.set(draftsAtom, {});
    void mutate(() => true, undefined, { revalidate: false });
    loggingOut = false;
    // The member's app lives at /1/{memberId}/, so the login page is a new document: the notice
    // goes with it, or it would vanish half a second after it appeared.
    if (notice && window.location.pathname !== '/') carryToast(notice, 'error', NOTICE_MS);
    window.location.assign('/#/login');
  }, LOGOUT_REDIRECT_MS);
}
