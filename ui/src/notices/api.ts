// Calls of the system notices (fixed entry 003), docs/api-notices.md.
import { mutate } from 'swr';
import { getFetcher, request } from '../api/http';
import { withAfter } from '../api/keys';
import type { Page } from '../api/types';
import type { NoticeCounts, NoticeTab } from './logic';

export interface Notice {
  id: string;
  /**
   * the kind: FriendRequest | FriendAccepted | FriendRefused | GroupInvite | GroupOwner | GroupJoinRequest |
   * Verification | FeedbackReply
   */
  command: string;
  tab: Exclude<NoticeTab, 'all'>;
  /** the notice's text, in the request's language */
  content: string;
  /** the text the act carried (a friend request's message) */
  message: string;
  readFlag: 'Unread' | 'Read';
  createTime: number;
  contentId: string;
  fromId: string;
  fromName: string;
  fromHead: string;
  groupId?: string;
  groupName?: string;
  position: number;
  /** Verification: the one-time code, how long it lasts and the new device's system */
  code?: string;
  validMinutes?: number;
  system?: string;
  /** GroupJoinRequest: the request, who would join, and its state */
  requestId?: string;
  memberId?: string;
  memberName?: string;
  status?: 'pending' | 'accepted' | 'rejected';
}

export interface NoticePage extends Page<Notice> {
  counts: NoticeCounts;
}

export interface NoticesChanged {
  ids: string[];
  /** 0 when nothing changed */
  position: number;
}

export const NOTICE_PAGE_SIZE = 100;

const LIST = '/v1/message/messagePush/history/systemNotify/list';

export const noticeKeys = {
  list(tab: NoticeTab): string {
    return `${LIST}?${new URLSearchParams({ tab, curPage: '1', pageSize: String(NOTICE_PAGE_SIZE) })}`;
  },
  count: '/v1/message/messagePush/history/systemNotify/count',
};

export function isNoticeKey(key: unknown): boolean {
  return typeof key === 'string' && (key.startsWith(LIST) || key === noticeKeys.count);
}

export function readNotice(id: string): Promise<NoticesChanged> {
  return request('PUT', '/v1/message/messagePush/history/systemNotify/read', { body: { id } });
}

export function readAllNotices(): Promise<NoticesChanged> {
  return request('PUT', '/v1/message/messagePush/history/systemNotify/readAll');
}

export function deleteNotices(ids: string[]): Promise<NoticesChanged> {
  return request('POST', '/v1/message/deleteSystemMessageBatch', { body: { ids } });
}

/** Marks read the unread notices about one act (a friend request's apply id), once it is dealt with. */
export async function readNoticesAbout(contentId: string): Promise<void> {
  const key = noticeKeys.list('friends');
  const page = await getFetcher<NoticePage>(key);
  const unread = page.records.filter((n) => n.contentId === contentId && n.readFlag === 'Unread');
  let position = 0;
  for (const notice of unread) position = Math.max(position, (await readNotice(notice.id)).position);
  if (unread.length > 0) await refreshNotices(key, position);
}

/** Reloads the lists and counts of notices; `key` (the list on screen) and the counts wait for `position`. */
export async function refreshNotices(key: string, position: number): Promise<void> {
  if (position > 0) await Promise.all([refreshKeyAfter(key, position), refreshKeyAfter(noticeKeys.count, position)]);
  await mutate((k) => isNoticeKey(k) && k !== key && k !== noticeKeys.count);
}

/** Refetches one key with ?after=position and puts the answer in the cache. */
export function refreshKeyAfter(key: string, position: number): Promise<unknown> {
  return mutate(key, getFetcher(withAfter(key, position)), { revalidate: false });
}
