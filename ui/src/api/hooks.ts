// One hook per endpoint over the key factory; a signed-out page fetches nothing.
import { useAtomValue } from 'jotai';
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import { authAtom } from '../auth/authState';
import { HISTORY_PAGE_SIZE, keys } from './keys';
import type { Apply, ChatType, FriendGroup, Message, Page, PublicInfo, Session, SystemInfo } from './types';

function useSignedIn(): boolean {
  return useAtomValue(authAtom) !== null;
}

export function useSessions() {
  return useSWR<Session[]>(useSignedIn() ? keys.sessions : null);
}

export function useFriendGroups() {
  return useSWR<FriendGroup[]>(useSignedIn() ? keys.friends : null, { dedupingInterval: 2000 });
}

/** The tenant's system info; the token tells the server which tenant. */
export function useSystemInfo() {
  return useSWR<SystemInfo>(useSignedIn() ? keys.systemInfo : null, { revalidateOnFocus: false });
}

export function useFriendApplies() {
  return useSWR<Page<Apply>>(useSignedIn() ? keys.applies : null);
}

export function useMember(memberId: string) {
  return useSWR<PublicInfo>(useSignedIn() ? keys.member(memberId) : null, { revalidateOnFocus: false });
}

/**
 * History of a friend or group chat, newest page first: page 0 is the newest 20 messages, page
 * n+1 the 20 before the oldest of page n (queryType Up with the messageId cursor). A short page
 * ends it.
 */
export function useHistory(peerId: string | null, chatType: ChatType = 'Friend') {
  const signedIn = useSignedIn();
  return useSWRInfinite<Message[]>(
    (index, previous: Message[] | null) => {
      if (!signedIn || !peerId) return null;
      if (index === 0) return keys.history(peerId, undefined, chatType);
      if (!previous || previous.length < HISTORY_PAGE_SIZE || !previous[0]?.id) return null;
      return keys.history(peerId, previous[0].id, chatType);
    },
    { revalidateFirstPage: true, revalidateOnFocus: false },
  );
}
