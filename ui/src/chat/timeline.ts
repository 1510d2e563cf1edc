// Merges the history pages (swr) with the messages this page knows better (optimistic sends,
// pushes) and the read marks, into the list shown in the chat view.
import type { Message, MessageStatus } from '../api/types';
import { compareIds } from './ids';

export interface ReadMarks {
  /** the peer has read my messages up to this id (command 28) */
  peerReadUpTo?: string;
  /** my messages the peer settled as read out of order, by deleting them unread for itself (a 28 without messageId) */
  peerReadIds?: readonly string[];
  /** I have read the peer's messages up to this id (my command 27, or 28 from my other device) */
  myReadUpTo?: string;
}

const rank: Record<MessageStatus, number> = { sending: 0, failedSent: 0, sent: 1, Unread: 2, Read: 3 };

function keyOf(message: Message): string {
  return message.uuid || message.id;
}

function better(a: Message, b: Message): Message {
  const winner = rank[b.msgStatus] > rank[a.msgStatus] ? b : a;
  const other = winner === a ? b : a;
  return {
    ...other,
    ...winner,
    id: winner.id || other.id,
    serverReceiveTime: winner.serverReceiveTime || other.serverReceiveTime,
  };
}

function timeOf(message: Message): number {
  return message.serverReceiveTime || message.createTime;
}

function withReadMarks(message: Message, me: string, marks: ReadMarks): Message {
  if (!message.id || message.msgStatus === 'Read') return message;
  const own = message.from === me;
  const upTo = own ? marks.peerReadUpTo : marks.myReadUpTo;
  const readable = own
    ? message.msgStatus === 'sent' || message.msgStatus === 'Unread'
    : message.msgStatus === 'Unread';
  if (!readable) return message;
  if (upTo && compareIds(message.id, upTo) <= 0) return { ...message, msgStatus: 'Read' };
  if (own && marks.peerReadIds?.includes(message.id)) return { ...message, msgStatus: 'Read' };
  return message;
}

export function mergeTimeline(history: Message[], live: Message[], me: string, marks: ReadMarks): Message[] {
  const byKey = new Map<string, Message>();
  for (const message of [...history, ...live]) {
    const key = keyOf(message);
    const known = byKey.get(key);
    byKey.set(key, known ? better(known, message) : message);
  }
  return [...byKey.values()]
    .map((message) => withReadMarks(message, me, marks))
    .sort((a, b) => {
      const byTime = timeOf(a) - timeOf(b);
      if (byTime !== 0) return byTime;
      return a.id && b.id ? compareIds(a.id, b.id) : 0;
    });
}

/**
 * Whether the history pages end before a message the live list dropped (`droppedUpTo`, its time;
 * 0 for none): the history must be reloaded so that the dropped messages are in its pages.
 */
export function historyBehind(history: Message[], droppedUpTo: number): boolean {
  return droppedUpTo > 0 && !history.some((message) => timeOf(message) >= droppedUpTo);
}

/** The newest incoming message and whether any incoming one is still Unread. */
export function incomingReadState(timeline: Message[], me: string): { newestId?: string; anyUnread: boolean } {
  let newestId: string | undefined;
  let anyUnread = false;
  for (const message of timeline) {
    if (message.from === me || !message.id) continue;
    if (!newestId || compareIds(message.id, newestId) > 0) newestId = message.id;
    if (message.msgStatus === 'Unread') anyUnread = true;
  }
  return { newestId, anyUnread };
}

/**
 * The message the "unread" separator goes above when a chat opens with `unread` unread messages:
 * the oldest of the last `unread` messages from others (system lines aside). Undefined when none.
 */
export function firstUnread(timeline: Message[], me: string, unread: number): Message | undefined {
  if (unread <= 0) return undefined;
  let left = unread;
  for (let i = timeline.length - 1; i >= 0; i -= 1) {
    const message = timeline[i];
    if (message.from === me || message.msgType === 'Event') continue;
    left -= 1;
    if (left === 0) return message;
  }
  return timeline.find((message) => message.from !== me && message.msgType !== 'Event');
}
