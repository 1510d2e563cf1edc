// Pure rules of the conversation actions (pin, do-not-disturb, unread mark, remove): which actions
// an item offers, what each does to the list before the server confirms, how a pushed item (49)
// lands, and how an item's badge looks.
import type { Session } from '../api/types';
import type { MessageKey } from '../i18n';
import { sortSessions, upsertSession } from './sessions';

export type SessionAction = 'pin' | 'unpin' | 'dndOn' | 'dndOff' | 'markUnread' | 'markRead' | 'remove';

/** The pin cap's business code (spec: pinned-chat count exceeded). */
export const PIN_LIMIT_CODE = '20065';

export const actionLabels: Record<SessionAction, MessageKey> = {
  pin: 'session.pin',
  unpin: 'session.unpin',
  dndOn: 'session.dndOn',
  dndOff: 'session.dndOff',
  markUnread: 'session.markUnread',
  markRead: 'session.markRead',
  remove: 'session.remove',
};

export function isPinned(session: Session): boolean {
  return session.topMessage === 'Y';
}

export function isMuted(session: Session): boolean {
  return session.dnd === 'Y';
}

/** Unread messages, or the member's own unread mark. */
export function looksUnread(session: Session): boolean {
  return session.unreadCount > 0 || session.markedUnread === 'Y';
}

/** The count on the chats tab: what the badges show, muted conversations left out. */
export function totalUnread(list: Session[]): number {
  return list.reduce((sum, session) => {
    const badge = badgeOf(session);
    return badge.muted ? sum : sum + badge.count;
  }, 0);
}

/** Opening a conversation the member marked unread, with nothing unread to acknowledge, reads the mark. */
export function opensMarked(session: Session): boolean {
  return session.markedUnread === 'Y' && session.unreadCount === 0;
}

/** The actions the context menu offers for an item, in menu order. */
export function sessionActions(session: Session): SessionAction[] {
  return [
    isPinned(session) ? 'unpin' : 'pin',
    isMuted(session) ? 'dndOff' : 'dndOn',
    looksUnread(session) ? 'markRead' : 'markUnread',
    'remove',
  ];
}

export interface Badge {
  /** what the badge shows; 0: no badge */
  count: number;
  /** grey instead of red: do-not-disturb is on */
  muted: boolean;
}

/** An unread mark shows as 1 when no message is unread. */
export function badgeOf(session: Session): Badge {
  const count = session.unreadCount > 0 ? session.unreadCount : session.markedUnread === 'Y' ? 1 : 0;
  return { count, muted: isMuted(session) };
}

/** What an action does to the list right away; the server's push confirms it. */
export function applyAction(list: Session[], peerId: string, action: SessionAction, now: number): Session[] {
  if (action === 'remove') return list.filter((session) => session.id !== peerId);
  const patch = (session: Session): Session => {
    switch (action) {
      case 'pin':
        return { ...session, topMessage: 'Y', topTime: now };
      case 'unpin':
        return { ...session, topMessage: 'N', topTime: 0 };
      case 'dndOn':
        return { ...session, dnd: 'Y' };
      case 'dndOff':
        return { ...session, dnd: 'N' };
      case 'markUnread':
        return { ...session, markedUnread: 'Y' };
      case 'markRead':
        return { ...session, markedUnread: 'N', unreadCount: 0 };
    }
  };
  if (!list.some((session) => session.id === peerId)) return list;
  return sortSessions(list.map((session) => (session.id === peerId ? patch(session) : session)));
}

/** Lands a pushed item (command 49): a hidden one leaves the list, any other replaces or joins it. */
export function applySessionPush(list: Session[], pushed: Session): Session[] {
  if (!pushed || !pushed.id) return list;
  if (pushed.hide === 'Y') return list.filter((session) => session.id !== pushed.id);
  const { operationType: _operation, hide: _hide, ...item } = pushed;
  return upsertSession(list, item);
}
