import { useFriendGroups, useSessions } from '../api/hooks';

export interface PeerInfo {
  name: string;
  remark: string;
  code: string;
  headUrl: string;
  /** the friend's member level: System is the activity administrator */
  memberLevelCode: string;
  /** the open chat's unread count in the session list */
  unreadCount: number;
  /** unacknowledged mentions of this member in the chat */
  atCount: number;
}

/** Who a friend chat is with, from the session list or else the friend list. */
export function usePeer(peerId: string): PeerInfo {
  const sessions = useSessions();
  const groups = useFriendGroups();
  const session = sessions.data?.find((item) => item.id === peerId);
  const friend = groups.data?.flatMap((group) => group.friends).find((item) => item.id === peerId);
  return {
    name: session?.name || friend?.name || '',
    remark: session?.remark || friend?.remark || '',
    code: friend?.code ?? '',
    headUrl: session?.headUrl || friend?.headUrl || '',
    memberLevelCode: friend?.memberLevelCode ?? '',
    unreadCount: session?.unreadCount ?? 0,
    atCount: session?.atCount ?? 0,
  };
}
