import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
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
 * While a friend chat is open (group read marks are not served yet) and shows incoming Unread messages (or the list still counts
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
  const needed =
    chatType === 'Friend' &&
    !!newestId && (anyUnread || sessionUnread > 0) && (!ackedUpTo || compareIds(newestId, ackedUpTo) > 0);

  useEffect(() => {
    if (!needed || !socketOpen || !newestId) return;
    void sendFrame(CMD.readAck, { chatType: 'Friend', from: me, to: peerId, messageId: newestId, unreadCount: 0 }).then(
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
  }, [needed, socketOpen, newestId, me, peerId]);
}
