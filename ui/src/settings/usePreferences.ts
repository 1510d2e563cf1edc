import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import useSWR from 'swr';
import { authAtom } from '../auth/authState';
import { DEFAULT_PREFERENCES, settingsKeys, type Preferences } from './api';
import { preferencesAtom } from './alerts';
import { chatFontPx } from './logic';
import { appStore } from '../state/store';

export function usePreferences() {
  const signedIn = useAtomValue(authAtom) !== null;
  const swr = useSWR<Preferences>(signedIn ? settingsKeys.preferences : null);
  return { ...swr, prefs: { ...DEFAULT_PREFERENCES, ...(swr.data ?? {}) } };
}

/** Applies font size, background and message-time display to the document, for the chat's CSS. */
export function useApplyPreferences(): void {
  const { prefs } = usePreferences();
  useEffect(() => {
    appStore.set(preferencesAtom, prefs);
  }, [prefs.notifications, prefs.readSync, prefs.showMessageTime, prefs.imagePreviewWindow, prefs.fontSize, prefs.background]);
  useEffect(() => {
    const root = document.documentElement;
    root.style.setProperty('--chat-font-size', `${chatFontPx(prefs.fontSize)}px`);
    root.dataset.fontSize = String(prefs.fontSize);
    root.dataset.background = prefs.background;
    root.dataset.showTime = prefs.showMessageTime ? 'true' : 'false';
  }, [prefs.fontSize, prefs.background, prefs.showMessageTime]);
}
