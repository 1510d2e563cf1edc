// What each pushed command does to the client state.
import { mutate } from 'swr';
import { keys } from '../api/keys';
import type { Message, ReadAck, Session, SessionEndType } from '../api/types';
import { logout } from '../auth/logout';
import { maxId } from '../chat/ids';
import { personalKeys } from '../personal/api';
import { upsertLive } from '../chat/liveMessages';
import { queueSessionUpdate } from '../chat/sessionCache';
import { applyMessage, markSessionRead, peerOf, upsertSession } from '../chat/sessions';
import type { ReadMarks } from '../chat/timeline';
import { t, type MessageKey } from '../i18n';
import { readMarksAtom } from '../state/chat';
import { appStore } from '../state/store';
import { showToast } from '../state/toast';
import { openPeerIdAtom } from '../state/ui';
import { ProcessedIds } from './processedIds';

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
  heartbeat: 13,
  friendAdded: 24,
  applyChanged: 26,
  readAck: 27,
  readPushed: 28,
  sessionEnd: 31,
  stickers: 43,
  session: 49,
} as const;

const processed = new ProcessedIds();

export function handlePush(frame: Frame, me: string): void {
  switch (frame.cmd) {
    case CMD.message:
      onMessage(frame.data as Message, me);
      return;
    case CMD.readPushed:
      onRead(frame.data as ReadAck, me);
      return;
    case CMD.session:
      queueSessionUpdate((list) => upsertSession(list, frame.data as Session));
      return;
    case CMD.friendAdded:
      void mutate(keys.friends);
      void mutate(keys.applies);
      return;
    case CMD.applyChanged:
      void mutate(keys.applies);
      return;
    case CMD.stickers:
      void mutate(personalKeys.stickers);
      return;
    case CMD.sessionEnd:
      onSessionEnd((frame.data as { type?: SessionEndType } | undefined)?.type);
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
  if (!message || message.chatType !== 'Friend' || !message.id) return;
  if (processed.check(message.id)) return;
  const peerId = peerOf(message, me);
  upsertLive(peerId, message);
  const openPeerId = appStore.get(openPeerIdAtom);
  queueSessionUpdate((list) => applyMessage(list, message, { me, openPeerId }), message.position);
}

function patchMarks(peerId: string, patch: (marks: ReadMarks) => ReadMarks): void {
  appStore.set(readMarksAtom, (all) => ({ ...all, [peerId]: patch(all[peerId] ?? {}) }));
}

function onRead(ack: ReadAck, me: string): void {
  if (!ack || ack.chatType !== 'Friend' || !ack.messageId) return;
  if (ack.to === me) {
    patchMarks(ack.from, (marks) => ({ ...marks, peerReadUpTo: maxId(marks.peerReadUpTo, ack.messageId) }));
  } else if (ack.from === me) {
    patchMarks(ack.to, (marks) => ({ ...marks, myReadUpTo: maxId(marks.myReadUpTo, ack.messageId) }));
    queueSessionUpdate((list) => markSessionRead(list, ack.to));
  }
}

function onSessionEnd(type: SessionEndType | undefined): void {
  const key: MessageKey = type ? (`end.${type}` as MessageKey) : 'end.Logout';
  logout({ notice: t(key), callServer: false });
}
