// What the member's settings change outside the settings screen: new-message alerts while the tab
// is hidden (notifications) and whether reads made on the member's other devices clear this one's
// badges (readSync). The settings reach the websocket handlers through `preferencesAtom`.
import { atom } from 'jotai';
import type { Message, ReadAck, Session } from '../api/types';
import { compareIds } from '../chat/ids';
import { previewText } from '../chat/preview';
import { isAfter } from '../chat/timeline';
import { t } from '../i18n';
import { ackedUpToAtom } from '../state/chat';
import { appStore } from '../state/store';
import { DEFAULT_PREFERENCES, type Preferences } from './api';

/** The signed-in member's settings as last read (kept by useApplyPreferences). */
export const preferencesAtom = atom<Preferences>(DEFAULT_PREFERENCES);

/** Messages that arrived while the tab was hidden; the tab title counts them (useTabTitle). */
export const unseenAtom = atom(0);

/** The page title with a count of unread messages. */
export function badgedTitle(title: string, count: number): string {
  return count > 0 ? `(${count}) ${title}` : title;
}

function onVisible(): void {
  if (document.visibilityState === 'visible') appStore.set(unseenAtom, 0);
}

if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);

/**
 * Alerts of a message another member sent, when the tab is hidden and notifications are on:
 * the title counts it, and a system notification shows it if the browser allows them.
 */
export function alertIncoming(message: Message, me: string): void {
  if (message.from === me || message.msgType === 'Event') return;
  if (typeof document === 'undefined' || document.visibilityState !== 'hidden') return;
  if (!appStore.get(preferencesAtom).notifications) return;
  appStore.set(unseenAtom, (n) => n + 1);
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const notice = new Notification(t('alert.newMessage'), {
    body: previewText(message.msgType, message.content, t),
    tag: message.chatType === 'Group' ? message.groupId : message.from,
  });
  notice.onclick = () => {
    window.focus();
    notice.close();
  };
}

/** Turning notifications on asks the browser for permission (it must follow a click). */
export function askNotificationPermission(): void {
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission();
}

function ackedHere(peerId: string, ack: ReadAck): boolean {
  const acked = appStore.get(ackedUpToAtom)[peerId];
  return !!acked && !isAfter({ id: ack.messageId, seq: ack.seq }, acked);
}

/**
 * With read sync off, a read this member made on another device (28 from the member, for a
 * message this device has not acknowledged) leaves this device's marks and badge alone.
 */
export function ignoresReadFromElsewhere(ack: ReadAck, me: string, peerId: string): boolean {
  return ack.from === me && !appStore.get(preferencesAtom).readSync && !ackedHere(peerId, ack);
}

/**
 * With read sync off, a pushed item (49) that only lowers the unread count, because of a read on
 * another device, keeps this device's count. Other changes (pin, do-not-disturb, marks, a newer
 * message) land as pushed.
 */
export function keepLocalUnread(local: Session | undefined, pushed: Session, readSync: boolean, acked?: string): Session {
  if (readSync || !local || pushed.operationType || pushed.hide === 'Y') return pushed;
  if (pushed.lastMessageId !== local.lastMessageId || pushed.unreadCount >= local.unreadCount) return pushed;
  if (acked && local.lastMessageId && compareIds(acked, local.lastMessageId) >= 0) return pushed;
  return { ...pushed, unreadCount: local.unreadCount, atCount: local.atCount };
}

/** keepLocalUnread with this device's settings and acknowledgements. */
export function sessionPushHere(list: Session[], pushed: Session): Session {
  if (!pushed?.id) return pushed;
  const local = list.find((session) => session.id === pushed.id);
  return keepLocalUnread(local, pushed, appStore.get(preferencesAtom).readSync, appStore.get(ackedUpToAtom)[pushed.id]?.id);
}
