// Optimistic sending: the message shows at once as `sending`, then `sent` with the server id and
// time, or `failedSent` after a failure or 15 s without answer. A resend reuses the uuid, which
// the server treats as the same message.
import { replyMessage, sendMessage } from '../api/endpoints';
import { ApiError } from '../api/http';
import type { Message, SendBody } from '../api/types';
import { currentAuth } from '../auth/authState';
import { showToast } from '../state/toast';
import { addressOf, addressOfMessage, conversationOf } from './address';
import { newUuid } from './ids';
import { patchLive, upsertLive } from './liveMessages';
import { queueSessionUpdate } from './sessionCache';
import { applyMessage, hasSession } from './sessions';

const MUTED_CODES = new Set(['30021', '30022']);

/** Sends a text, or a reply to `parent` (msgType Reply with its parentMessageId). */
export function sendText(peerId: string, content: string, parent?: Message): void {
  sendContent(peerId, parent ? 'Reply' : 'Text', content, parent);
}

/** Sends a message of a sendable type; a media message's content comes from chat/upload.ts. */
export function sendContent(peerId: string, msgType: SendBody['msgType'], content: string, parent?: Message): void {
  const me = currentAuth()?.user.id;
  if (!me) return;
  const address = addressOf(peerId);
  const message: Message = {
    id: '',
    uuid: newUuid(),
    chatType: address.chatType,
    from: me,
    to: address.chatType === 'Friend' ? address.to : '',
    groupId: address.chatType === 'Group' ? address.groupId : '',
    msgType,
    content,
    ...(parent ? { parentMessageId: parent.id } : {}),
    serverReceiveTime: 0,
    createTime: Date.now(),
    msgStatus: 'sending',
    failedSentCount: 0,
  };
  upsertLive(peerId, message);
  // A chat new to the list appears once the server has the message (its answer gives the position).
  queueSessionUpdate((list) =>
    hasSession(list, peerId) ? applyMessage(list, message, { me, openPeerId: peerId }) : list,
  );
  void deliver(message, me);
}

/** Tapping a failed message sends it again with the same uuid. */
export function resend(message: Message): void {
  const me = currentAuth()?.user.id;
  if (!me || message.msgStatus !== 'failedSent') return;
  patchLive(conversationOf(message, me), message.uuid, (item) => ({ ...item, msgStatus: 'sending' }));
  void deliver(message, me);
}

async function deliver(message: Message, me: string): Promise<void> {
  const peerId = conversationOf(message, me);
  try {
    const body: SendBody = {
      ...addressOfMessage(message),
      uuid: message.uuid,
      msgType: message.msgType as SendBody['msgType'],
      content: message.content,
    };
    const result = message.parentMessageId
      ? await replyMessage({ ...body, msgType: 'Reply', parentMessageId: message.parentMessageId })
      : await sendMessage(body);
    let sent: Message = message;
    patchLive(peerId, message.uuid, (item) => {
      sent = {
        ...item,
        id: result.id,
        serverReceiveTime: result.serverReceiveTime,
        msgStatus: item.msgStatus === 'Unread' || item.msgStatus === 'Read' ? item.msgStatus : 'sent',
      };
      return sent;
    });
    queueSessionUpdate((list) => applyMessage(list, sent, { me, openPeerId: peerId }), result.position);
  } catch (error) {
    patchLive(peerId, message.uuid, (item) => ({
      ...item,
      msgStatus: 'failedSent',
      failedSentCount: (item.failedSentCount ?? 0) + 1,
    }));
    if (error instanceof ApiError && MUTED_CODES.has(error.code)) showToast(error.message, 'error', 3500);
    else if (error instanceof ApiError && error.status >= 400) showToast(error.message, 'error');
  }
}
