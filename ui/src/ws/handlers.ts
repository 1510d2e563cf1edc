// What each pushed command does to the client state.
import { mutate } from 'swr';
import { keys } from '../api/keys';
import type { ClearPush, EditPush, GroupPush, Message, OnlinePush, OperationPush, ReadAck, Session, SessionEndType } from '../api/types';
import { onAssistantPush, type AssistantPush } from '../assistant/api';
import { logout } from '../auth/logout';
import { onCallSignal } from '../calls/actions';
import type { CallSignal } from '../calls/signals';
import { conversationOf } from '../chat/address';
import { GROUP_CMD, onGroupPush } from '../groups/pushes';
import { applyClear, applyEdit, applyRecall, applyRemoval } from '../chat/life';
import { personalKeys } from '../personal/api';
import { isNoticeKey, noticeKeys } from '../notices/api';
import type { NoticeCounts } from '../notices/logic';
import { takeNoticeCounts } from '../notices/state';
import { upsertLive } from '../chat/liveMessages';
import { queueSessionUpdate, refetchSessions } from '../chat/sessionCache';
import { groupApplyKeyPrefix, refreshReaders } from '../groups/api';
import { onPinPush, type PinPushData } from '../groups/pins';
import { applySessionPush } from '../chat/conversations';
import { applyMessage, markSessionRead, peerOf } from '../chat/sessions';
import { laterPoint, type ReadMarks } from '../chat/timeline';
import { t, type MessageKey } from '../i18n';
import { readMarksAtom } from '../state/chat';
import { appStore } from '../state/store';
import { applyOnline } from '../state/presence';
import { showToast } from '../state/toast';
import { openPeerIdAtom } from '../state/ui';
import { ProcessedIds } from './processedIds';
import { resync } from './resync';
import { onFriendDeleted } from '../settings/friendPushes';
import { onFriendsPush, onUserInfoPush } from '../settings/api';
import { alertIncoming, ignoresReadFromElsewhere, sessionPushHere } from '../settings/alerts';

export interface Frame {
  cmd: number;
  data?: unknown;
  id?: string;
  code?: string;
  info?: string;
}

export const CMD = {
  error: 0,
  message: 11,
  /** call signals, docs/api-calls.md */
  call: 12,
  heartbeat: 13,
  operation: 16,
  friendAdded: 24,
  applyChanged: 26,
  readAck: 27,
  readPushed: 28,
  friendCleared: 30,
  groupCleared: 29,
  pinRefresh: 39,
  pinResult: 50,
  sessionEnd: 31,
  online: 33,
  edited: 34,
  stickers: 43,
  notices: 44,
  friendDeleted: 25,
  userInfo: 46,
  friendInfo: 48,
  session: 49,
  /** pushes may have been missed: reload what is shown (docs/api-skeleton.md) */
  resync: 60,
  /** the chat assistant: an answer's pieces, a question or answer taken (docs/api-assistant.md) */
  assistant: 70,
} as const;

const processed = new ProcessedIds();

export function handlePush(frame: Frame, me: string): void {
  switch (frame.cmd) {
    case CMD.message:
      onMessage(frame.data as Message, me);
      return;
    case CMD.call:
      onCallSignal(frame.data as CallSignal, me);
      return;
    case CMD.readPushed:
      onRead(frame.data as ReadAck, me);
      return;
    case CMD.edited:
      onEdited(frame.data as EditPush, me);
      return;
    case CMD.operation:
      onOperation(frame.data as OperationPush, me);
      return;
    case CMD.friendCleared:
    case CMD.groupCleared:
      onCleared(frame.data as ClearPush);
      return;
    case CMD.pinRefresh:
    case CMD.pinResult:
      onPinPush(frame.cmd, frame.data as PinPushData | undefined);
      return;
    case CMD.session:
      queueSessionUpdate((list) => applySessionPush(list, sessionPushHere(list, frame.data as Session)));
      return;
    case GROUP_CMD.gone:
    case GROUP_CMD.joined:
    case GROUP_CMD.changed:
      onGroupPush(frame.cmd, frame.data as GroupPush | undefined, me);
      return;
    case CMD.friendAdded:
      void mutate(keys.friends);
      void mutate(keys.applies);
      return;
    case CMD.applyChanged:
      void mutate(keys.applies);
      void mutate((key) => typeof key === 'string' && key.startsWith(groupApplyKeyPrefix));
      return;
    case CMD.userInfo:
      onUserInfoPush();
      return;
    case CMD.friendInfo:
      onFriendsPush();
      return;
    case CMD.friendDeleted:
      onFriendDeleted((frame.data as { friendMemberId?: string } | undefined)?.friendMemberId);
      return;
    case CMD.stickers:
      void mutate(personalKeys.stickers);
      return;
    case CMD.notices:
      takeNoticeCounts(frame.data as NoticeCounts, true);
      void mutate((key) => isNoticeKey(key) && key !== noticeKeys.count);
      return;
    case CMD.sessionEnd:
      onSessionEnd((frame.data as { type?: SessionEndType } | undefined)?.type);
      return;
    case CMD.online:
      applyOnline(frame.data as OnlinePush | undefined);
      return;
    case CMD.resync:
      resync();
      return;
    case CMD.assistant:
      onAssistantPush(frame.data as AssistantPush | undefined);
      return;
    case CMD.error:
      if (frame.code === '400') showToast(t('net.decryptError'), 'error');
      return;
    default:
      // Heartbeat replies, replies to our own frames, and commands later issues handle.
      return;
  }
}

function onMessage(message: Message, me: string): void {
  if (!message || (message.chatType !== 'Friend' && message.chatType !== 'Group') || !message.id) return;
  if (processed.check(message.id)) return;
  const peerId = conversationOf(message, me);
  upsertLive(peerId, message);
  alertIncoming(message, me);
  if (message.chatType === 'Group' || message.msgType === 'Forward') {
    // The server names the sender (and a forward's original sender) in the preview and counts
    // unread and mentions: read it again.
    refetchSessions(message.position);
    return;
  }
  const openPeerId = appStore.get(openPeerIdAtom);
  queueSessionUpdate((list) => applyMessage(list, message, { me, openPeerId }), message.position);
}

/**
 * A message the realtime list says this client missed while it was away: never handled twice,
 * kept live only in the open chat (the others reload their pages, spec messaging.md section 4).
 */
export function absorbMissed(message: Message, me: string): void {
  if (!message || message.chatType !== 'Friend' || !message.id) return;
  if (processed.check(message.id)) return;
  const peerId = peerOf(message, me);
  if (peerId === appStore.get(openPeerIdAtom)) upsertLive(peerId, message);
}

/** The conversation a push about messages is in: its group, or the friend on the other side. */
function chatOfPush(push: { chatType: string; groupId?: string; from: string; to: string }, me: string): string {
  return push.chatType === 'Group' ? (push.groupId ?? '') : peerOf(push, me);
}

function onEdited(push: EditPush, me: string): void {
  if (!push || (push.chatType !== 'Friend' && push.chatType !== 'Group') || !push.id) return;
  applyEdit(chatOfPush(push, me), push.id, push.content, push.editTime || Date.now(), push.position);
}

function onOperation(push: OperationPush, me: string): void {
  if (!push || (push.chatType !== 'Friend' && push.chatType !== 'Group') || !push.messageIds?.length) return;
  const peerId = chatOfPush(push, me);
  if (!peerId) return;
  if (push.operationType === 'Recall') applyRecall(peerId, push.messageIds, push.time || Date.now(), push.position);
  else if (push.operationType === 'Delete') applyRemoval(peerId, push.messageIds, push.position);
}

function onCleared(push: ClearPush): void {
  const peerId = push?.chatType === 'Group' ? push.groupId : push?.chatType === 'Friend' ? push.friendMemberId : '';
  if (!peerId) return;
  applyClear(peerId, push.upTo || Date.now(), push.position);
}

function patchMarks(peerId: string, patch: (marks: ReadMarks) => ReadMarks): void {
  appStore.set(readMarksAtom, (all) => ({ ...all, [peerId]: patch(all[peerId] ?? {}) }));
}

function onRead(ack: ReadAck, me: string): void {
  if (ack?.chatType === 'Group') {
    // This member read the group on another connection (or here): its badge and mentions clear.
    const groupId = ack.groupId || ack.to;
    if (groupId && ack.from === me && !ignoresReadFromElsewhere(ack, me, groupId)) queueSessionUpdate((list) => markSessionRead(list, groupId));
    // Another member read messages of mine.
    if (groupId && ack.from !== me) void refreshReaders(groupId);
    return;
  }
  if (!ack || ack.chatType !== 'Friend') return;
  if (!ack.messageId) {
    // The peer deleted messages of mine unread, for itself only: just those count as read.
    const ids = ack.messageIds ?? [];
    if (ack.to === me && ids.length) {
      patchMarks(ack.from, (marks) => ({ ...marks, peerReadIds: [...(marks.peerReadIds ?? []), ...ids] }));
    }
    return;
  }
  const point = { id: ack.messageId, seq: ack.seq };
  if (ack.to === me) {
    patchMarks(ack.from, (marks) => ({ ...marks, peerReadUpTo: laterPoint(marks.peerReadUpTo, point) }));
  } else if (ack.from === me) {
    if (ignoresReadFromElsewhere(ack, me, ack.to)) return;
    patchMarks(ack.to, (marks) => ({ ...marks, myReadUpTo: laterPoint(marks.myReadUpTo, point) }));
    queueSessionUpdate((list) => markSessionRead(list, ack.to));
  }
}

const endNotices: Record<SessionEndType, MessageKey> = {
  KickOut: 'end.KickOut',
  Disable: 'end.Disable',
  Offline: 'end.Offline',
  Logout: 'end.Logout',
};

/** The notice a session end (31) shows before the logout (spec messaging.md section 8). */
export function sessionEndNotice(type: unknown): MessageKey {
  return typeof type === 'string' && Object.hasOwn(endNotices, type) ? endNotices[type as SessionEndType] : 'end.Logout';
}

function onSessionEnd(type: SessionEndType | undefined): void {
  logout({ notice: t(sessionEndNotice(type)), callServer: false });
}
