// Pure rules of the notices view: tabs, unread counts and their pushes (44), batch selection.
import type { MessageKey } from '../i18n';

export type NoticeTab = 'all' | 'friends' | 'system' | 'groups';

export const NOTICE_TABS: NoticeTab[] = ['all', 'friends', 'system', 'groups'];

/** A member's unread notices: total, friend, system (spec: the notification counts) and group. */
export interface NoticeCounts {
  total: number;
  friend: number;
  system: number;
  group: number;
  /** the log position the counts stand at (pushes carry it) */
  position?: number;
}

export const NO_COUNTS: NoticeCounts = { total: 0, friend: 0, system: 0, group: 0 };

export const MAX_NOTICE_BATCH = 100;

export function tabLabel(tab: NoticeTab): MessageKey {
  return `notice.tab.${tab}` as MessageKey;
}

/** The unread count a tab's badge shows. */
export function unreadIn(tab: NoticeTab, counts: NoticeCounts): number {
  switch (tab) {
    case 'all':
      return counts.total;
    case 'friends':
      return counts.friend;
    case 'system':
      return counts.system;
    case 'groups':
      return counts.group;
  }
}

/**
 * Takes counts from a push (44) or a fetch unless they are older than the ones held: counts
 * without a position (a fetch) always win, since the fetch reads after every push it follows.
 */
export function newerCounts(held: NoticeCounts, next: NoticeCounts | null | undefined): NoticeCounts {
  if (!next || typeof next.total !== 'number') return held;
  if (next.position !== undefined && held.position !== undefined && next.position < held.position) return held;
  return {
    total: next.total,
    friend: next.friend ?? 0,
    system: next.system ?? 0,
    group: next.group ?? 0,
    position: next.position ?? held.position,
  };
}

/** Toggles a notice in a batch selection of at most MAX_NOTICE_BATCH. */
export function toggleNotice(selected: string[], id: string): { selected: string[]; refused?: MessageKey } {
  if (selected.includes(id)) return { selected: selected.filter((s) => s !== id) };
  if (selected.length >= MAX_NOTICE_BATCH) return { selected, refused: 'notice.tooMany' };
  return { selected: [...selected, id] };
}

/** Why a batch deletion cannot go, or undefined. */
export function deleteRefusal(selected: string[]): MessageKey | undefined {
  if (selected.length === 0) return 'notice.selectFirst';
  if (selected.length > MAX_NOTICE_BATCH) return 'notice.tooMany';
  return undefined;
}

/** Where a notice leads when opened: the friend requests, a group's chat, a group's join requests, or nowhere. */
export function noticeTarget(n: { command: string; groupId?: string }): 'requests' | 'group' | 'groupRequests' | null {
  if (n.command === 'FriendRequest') return 'requests';
  if (n.command === 'GroupJoinRequest' && n.groupId) return 'groupRequests';
  if ((n.command === 'GroupInvite' || n.command === 'GroupOwner') && n.groupId) return 'group';
  return null;
}
