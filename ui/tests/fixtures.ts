// Shared test data.
import type { Session } from '../src/api/types';

/** A friend conversation item named after its id. */
export function session(id: string, patch: Partial<Session> = {}): Session {
  return {
    id,
    type: 'Friend',
    chatType: 'Friend',
    friendMemberId: id,
    groupId: '',
    name: `name-${id}`,
    remark: '',
    headUrl: '',
    lastMessageId: '',
    lastMessageType: 'Text',
    lastMessageContent: '',
    lastMessageTime: 0,
    unreadCount: 0,
    topMessage: 'N',
    ...patch,
  };
}
