import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { ackMentions } from '../api/endpoints';
import type { ChatType, Message } from '../api/types';
import { compareIds, maxId } from '../chat/ids';
import { queueSessionUpdate } from '../chat/sessionCache';
import { markSessionRead } from '../chat/sessions';
import { incomingReadState } from '../chat/timeline';
import { ackedUpToAtom, readMarksAtom } from '../state/chat';
import { connectionAtom } from '../state/connection';
import { appStore } from '../state/store';
import { CMD } from '../ws/handlers';
import { sendFrame } from '../ws/socket';

/**
 * While a chat is open and shows incoming Unread messages (or the list still counts
 * unread for it), sends the read ack 27 for the newest incoming message, then marks them Read
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
  const { newestId, anyUnread } = incomingReadState(timeline, me);
  // Group messages are Read as loaded: the list's unread count (or an unread mention) asks for the ack.
  const newest = chatType === 'Group' ? newestOnServer(timeline) : newestId;
  const waiting = chatType === 'Group' ? sessionUnread > 0 : anyUnread || sessionUnread > 0;
  const needed = !!newest && waiting && (!ackedUpTo || compareIds(newest, ackedUpTo) > 0);

  useEffect(() => {
    if (!needed || !socketOpen || !newest) return;
    const newestId = newest;
    const body =
      chatType === 'Group'
        ? { chatType: 'Group', groupId: peerId, from: me, messageId: newestId }
        : { chatType: 'Friend', from: me, to: peerId, messageId: newestId, unreadCount: 0 };
    void sendFrame(CMD.readAck, body).then(
      (sent) => {
        if (!sent) return;
        appStore.set(ackedUpToAtom, (all) => ({ ...all, [peerId]: maxId(all[peerId], newestId)! }));
        appStore.set(readMarksAtom, (all) => ({
          ...all,
          [peerId]: { ...all[peerId], myReadUpTo: maxId(all[peerId]?.myReadUpTo, newestId) },
        }));
        queueSessionUpdate((list) => markSessionRead(list, peerId));
      },
    );
  }, [needed, socketOpen, newest, me, peerId, chatType]);
}

/** The newest message of a group chat the server holds (any sender, system lines too). */
function newestOnServer(timeline: Message[]): string | undefined {
  let newest: string | undefined;
  for (const message of timeline) if (message.id) newest = maxId(newest, message.id);
  return newest;
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
