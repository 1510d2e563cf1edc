// Pure updates of the recent-chats list; the websocket client and the send path apply them to the swr cache.
import type { Message, Session } from '../api/types';
import { RECALLED_PREVIEW } from './preview';

export function peerOf(message: Pick<Message, 'from' | 'to'>, me: string): string {
  return message.from === me ? message.to : message.from;
}

/** Pinned first, the latest pinned first, then the newest last message first. */
export function sortSessions(list: Session[]): Session[] {
  return [...list].sort((a, b) => {
    const pinned = Number(b.topMessage === 'Y') - Number(a.topMessage === 'Y');
    if (pinned !== 0) return pinned;
    const pinTime = a.topMessage === 'Y' ? (b.topTime ?? 0) - (a.topTime ?? 0) : 0;
    return pinTime !== 0 ? pinTime : (b.lastMessageTime ?? 0) - (a.lastMessageTime ?? 0);
  });
}

/** The unread messages of every chat not on do-not-disturb: the count the tab title shows. */
export function unreadTotal(list: Session[]): number {
  return list.reduce((sum, session) => sum + (session.dnd === 'Y' ? 0 : session.unreadCount || 0), 0);
}

function emptySession(peerId: string): Session {
  return {
    id: peerId,
    type: 'Friend',
    chatType: 'Friend',
    friendMemberId: peerId,
    groupId: '',
    name: '',
    remark: '',
    headUrl: '',
    lastMessageId: '',
    lastMessageType: '',
    lastMessageContent: '',
    lastMessageTime: 0,
    unreadCount: 0,
    topMessage: 'N',
  };
}

export interface MessageContext {
  me: string;
  /** the peer of the chat on screen: its messages do not raise the unread count */
  openPeerId: string | null;
}

/**
 * Puts a friend message into the list: preview and time, unread +1 when it is incoming and its
 * chat is not open, a new entry when the peer had none. A message already shown as last is a no-op.
 */
export function applyMessage(list: Session[], message: Message, context: MessageContext): Session[] {
  if (message.chatType !== 'Friend') return list;
  const peerId = peerOf(message, context.me);
  const existing = list.find((session) => session.id === peerId);
  if (existing && message.id && existing.lastMessageId === message.id) return list;
  const base = existing ?? emptySession(peerId);
  const incoming = message.from !== context.me;
  const raise = incoming && peerId !== context.openPeerId && message.msgStatus !== 'Read';
  const time = message.serverReceiveTime || message.createTime;
  const updated: Session = {
    ...base,
    lastMessageId: message.id || base.lastMessageId,
    lastMessageType: message.msgType,
    lastMessageContent: message.content,
    lastMessageTime: Math.max(time, base.lastMessageTime ?? 0),
    unreadCount: raise ? (base.unreadCount ?? 0) + 1 : (base.unreadCount ?? 0),
  };
  return sortSessions([updated, ...list.filter((session) => session.id !== peerId)]);
}

/**
 * Replaces (or adds) one session item as pushed by the server (command 49). The push carries the
 * conversation state only, so the display fields it leaves empty keep the values the list had.
 */
export function upsertSession(list: Session[], session: Session): Session[] {
  const known = list.find((item) => item.id === session.id);
  const merged = known
    ? {
        ...known,
        ...session,
        name: session.name || known.name,
        remark: session.remark || known.remark,
        headUrl: session.headUrl || known.headUrl,
      }
    : session;
  return sortSessions([merged, ...list.filter((item) => item.id !== session.id)]);
}

export function markSessionRead(list: Session[], peerId: string): Session[] {
  const target = list.find((session) => session.id === peerId);
  if (!target || (target.unreadCount === 0 && !target.atCount)) return list;
  return list.map((session) => (session.id === peerId ? { ...session, unreadCount: 0, atCount: 0 } : session));
}

export function hasSession(list: Session[], peerId: string): boolean {
  return list.some((session) => session.id === peerId);
}


function patchLast(list: Session[], peerId: string, ids: string[], patch: Partial<Session>): Session[] {
  const target = list.find((session) => session.id === peerId);
  if (!target || !ids.includes(target.lastMessageId)) return list;
  return list.map((session) => (session.id === peerId ? { ...session, ...patch } : session));
}

/** An edit of the last message changes the preview. */
export function sessionAfterEdit(list: Session[], peerId: string, id: string, content: string): Session[] {
  return patchLast(list, peerId, [id], { lastMessageContent: content });
}

export function sessionAfterRecall(list: Session[], peerId: string, ids: string[]): Session[] {
  return patchLast(list, peerId, ids, { lastMessageContent: RECALLED_PREVIEW });
}

/**
 * When the last message is deleted or cleared, the preview falls back to the newest remaining
 * message of the loaded timeline, or is blank (spec messaging.md section 4).
 */
export function sessionAfterRemoval(
  list: Session[],
  peerId: string,
  removedIds: string[],
  remaining: Message[],
): Session[] {
  const target = list.find((session) => session.id === peerId);
  if (!target || !target.lastMessageId || !removedIds.includes(target.lastMessageId)) return list;
  const newest = [...remaining].reverse().find((message) => message.id && !removedIds.includes(message.id));
  const patch: Partial<Session> = newest
    ? {
        lastMessageId: newest.id,
        lastMessageType: newest.msgType,
        lastMessageContent: newest.recalled ? RECALLED_PREVIEW : newest.content,
        lastMessageTime: newest.serverReceiveTime || newest.createTime,
      }
    : { lastMessageId: '', lastMessageType: '', lastMessageContent: '', lastMessageTime: 0 };
  return sortSessions(list.map((session) => (session.id === peerId ? { ...session, ...patch } : session)));
}

/** Clearing a chat blanks its preview when the last message is among the cleared ones. */
export function sessionAfterClear(list: Session[], peerId: string, upTo: number): Session[] {
  const target = list.find((session) => session.id === peerId);
  if (!target || target.lastMessageTime > upTo) return list;
  return list.map((session) =>
    session.id === peerId
      ? { ...session, lastMessageId: '', lastMessageType: '', lastMessageContent: '', unreadCount: 0 }
      : session,
  );
}
