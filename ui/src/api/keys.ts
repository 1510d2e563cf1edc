// swr keys are the GET paths themselves, so one fetcher serves every hook.
import type { ChatType } from './types';

export const HISTORY_PAGE_SIZE = 20;

export const keys = {
  sessions: '/v1/message/sessionInfo/list',
  friends: '/v1/chat/friendGroup/listFriendGroupByMemberId',
  applies: '/v1/chat/applyInfo/queryFriendApplyInfoPages?pageSize=99&curPage=1',
  systemInfo: '/v1/member/memberInfo/getSystemInfo',
  member(memberId: string): string {
    return `/v1/member/memberInfo/getMemberByMemberId?${new URLSearchParams({ memberId })}`;
  },
  /** A history page of a chat: the newest page without `beforeId`, else older than it. */
  history(peerId: string, beforeId?: string, chatType: ChatType = 'Friend'): string {
    const query = new URLSearchParams({
      [chatType === 'Group' ? 'groupId' : 'friendMemberId']: peerId,
      queryType: 'Up',
      pageSize: String(HISTORY_PAGE_SIZE),
    });
    if (beforeId) query.set('messageId', beforeId);
    return `/v1/message/messagePush/history/list/page?${query}`;
  },
};

/** Adds `after=<position>` so the server answers once its read models include that write. */
export function withAfter(key: string, position: number): string {
  return `${key}${key.includes('?') ? '&' : '?'}after=${position}`;
}
