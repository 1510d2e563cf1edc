import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { ackMentions } from '../api/endpoints';
import type { ChatType, Message } from '../api/types';
import { queueSessionUpdate } from '../chat/sessionCache';
import { markSessionRead } from '../chat/sessions';
import { incomingReadState, isAfter, lastOnServer, laterPoint } from '../chat/timeline';
import { ackedUpToAtom, readMarksAtom } from '../state/chat';
import { connectionAtom } from '../state/connection';
import { appStore } from '../state/store';
import { CMD } from '../ws/handlers';
import { sendFrame } from '../ws/socket';

/**
 * While a chat is open and shows incoming Unread messages (or the list still counts
 * unread for it), sends the read ack 27 for the last incoming message, then marks them Read
 * here and clears the chat's unread badge. Waits for the socket when it is down.
 */
export function useReadAck(
  peerId: string,
  chatType: ChatType,
  me: string,
  timeline: Message[],
  sessionUnread: number,
): void {
  const socketOpen = useAtomValue(connectionAtom).status === 'open';
  const ackedUpTo = useAtomValue(ackedUpToAtom)[peerId];
  const incoming = incomingReadState(timeline, me);
  // Group messages are Read as loaded: the list's unread count (or an unread mention) asks for the ack.
  const last = chatType === 'Group' ? lastOnServer(timeline) : incoming.newest;
  const waiting = chatType === 'Group' ? sessionUnread > 0 : incoming.anyUnread || sessionUnread > 0;
  const needed = !!last && waiting && (!ackedUpTo || isAfter(last, ackedUpTo));
  const lastId = last?.id;
  const lastSeq = last?.seq;

  useEffect(() => {
    if (!needed || !socketOpen || !lastId) return;
    const point = { id: lastId, seq: lastSeq };
    const body =
      chatType === 'Group'
        ? { chatType: 'Group', groupId: peerId, from: me, messageId: lastId }
        : { chatType: 'Friend', from: me, to: peerId, messageId: lastId, unreadCount: 0 };
    void sendFrame(CMD.readAck, body).then(
      (sent) => {
        if (!sent) return;
        appStore.set(ackedUpToAtom, (all) => ({ ...all, [peerId]: laterPoint(all[peerId], point) }));
        appStore.set(readMarksAtom, (all) => ({
          ...all,
          [peerId]: { ...all[peerId], myReadUpTo: laterPoint(all[peerId]?.myReadUpTo, point) },
        }));
        queueSessionUpdate((list) => markSessionRead(list, peerId));
      },
    );
  }, [needed, socketOpen, lastId, lastSeq, me, peerId, chatType]);
}

/** An open chat acknowledges its mentions of this member: the list's @ marker goes. */
export function useMentionAck(peerId: string, atCount: number): void {
  const pending = atCount > 0;
  useEffect(() => {
    if (!pending) return;
    void ackMentions(peerId)
      .then(({ position }) => {
        queueSessionUpdate(
          (list) => list.map((session) => (session.id === peerId ? { ...session, atCount: 0 } : session)),
          position,
        );
      })
      .catch(() => undefined);
  }, [pending, peerId]);
}
