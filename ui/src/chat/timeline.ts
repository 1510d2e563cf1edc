// Merges the history pages (swr) with the messages this page knows better (optimistic sends,
// pushes) and the read marks, into the list shown in the chat view.
import type { Message, MessageStatus } from '../api/types';
import { compareIds } from './ids';

/** A place in a chat: a message's id, and its seq once the server has placed the message. */
export interface ReadPoint {
  id: string;
  seq?: number;
}

/**
 * Orders a and b as the chat does. Ids drawn at once can be out of the chat's order, which is the
 * seq the server gave each message; ids decide only where a seq is missing.
 */
function compareInChat(a: ReadPoint, b: ReadPoint): number {
  if (a.seq !== undefined && b.seq !== undefined) return a.seq - b.seq;
  return compareIds(a.id, b.id);
}

/** Whether a comes after b in the chat. */
export function isAfter(a: ReadPoint, b: ReadPoint): boolean {
  return compareInChat(a, b) > 0;
}

export function laterPoint(a: ReadPoint | undefined, b: ReadPoint): ReadPoint {
  return a && !isAfter(b, a) ? a : b;
}

export interface ReadMarks {
  /** the peer has read my messages up to here (command 28) */
  peerReadUpTo?: ReadPoint;
  /** my messages the peer settled as read out of order, by deleting them unread for itself (a 28 without messageId) */
  peerReadIds?: readonly string[];
  /** I have read the peer's messages up to here (my command 27, or 28 from my other device) */
  myReadUpTo?: ReadPoint;
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
  if (upTo && !isAfter(message, upTo)) return { ...message, msgStatus: 'Read' };
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
      return a.id && b.id ? compareInChat(a, b) : 0;
    });
}

/**
 * Whether the history pages end before a message the live list dropped (`droppedUpTo`, its time;
 * 0 for none): the history must be reloaded so that the dropped messages are in its pages.
 */
export function historyBehind(history: Message[], droppedUpTo: number): boolean {
  return droppedUpTo > 0 && !history.some((message) => timeOf(message) >= droppedUpTo);
}

/** The last incoming message in the chat's order, and whether any incoming one is still Unread. */
export function incomingReadState(timeline: Message[], me: string): { newest?: ReadPoint; anyUnread: boolean } {
  let newest: ReadPoint | undefined;
  let anyUnread = false;
  for (const message of timeline) {
    if (message.from === me || !message.id) continue;
    newest = laterPoint(newest, pointOf(message));
    if (message.msgStatus === 'Unread') anyUnread = true;
  }
  return { newest, anyUnread };
}

/** The last message of a chat the server holds, in the chat's order (any sender, system lines too). */
export function lastOnServer(timeline: Message[]): ReadPoint | undefined {
  let last: ReadPoint | undefined;
  for (const message of timeline) if (message.id) last = laterPoint(last, pointOf(message));
  return last;
}

function pointOf(message: Message): ReadPoint {
  return { id: message.id, seq: message.seq };
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
