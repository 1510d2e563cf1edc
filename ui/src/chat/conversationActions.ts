// Runs a conversation action: the list changes at once, the server is asked, and a refusal
// shows its notice (the pin cap's own text for 20065) and reloads the list.
import {
  markConversationRead,
  markConversationUnread,
  pinConversation,
  removeConversation,
  setDoNotDisturb,
  unpinConversation,
  type Changed,
  type ConversationRef,
} from '../api/endpoints';
import type { ApiError } from '../api/http';
import type { Session } from '../api/types';
import { t } from '../i18n';
import { showToast } from '../state/toast';
import { PIN_LIMIT_CODE, applyAction, type SessionAction } from './conversations';
import { queueSessionUpdate, refetchSessions } from './sessionCache';

const calls: Record<SessionAction, (ref: ConversationRef) => Promise<Changed>> = {
  pin: pinConversation,
  unpin: unpinConversation,
  dndOn: (ref) => setDoNotDisturb(ref, true),
  dndOff: (ref) => setDoNotDisturb(ref, false),
  markUnread: markConversationUnread,
  markRead: markConversationRead,
  remove: removeConversation,
};

/** The text a refused action shows. */
export function refusalText(error: Pick<ApiError, 'code' | 'message'>): string {
  return error.code === PIN_LIMIT_CODE ? t('session.pinLimit') : error.message;
}

export async function runSessionAction(session: Session, action: SessionAction): Promise<boolean> {
  const peerId = session.id;
  queueSessionUpdate((list) => applyAction(list, peerId, action, Date.now()));
  try {
    await calls[action]({ chatType: 'Friend', friendMemberId: peerId });
    return true;
  } catch (error) {
    showToast(refusalText(error as ApiError), 'error', 4000);
    refetchSessions();
    return false;
  }
}
