import { useEffect, useMemo } from 'react';
import type { Group } from '../api/types';
import { rememberGroupChat } from '../chat/address';
import { useGroup, useGroupMembers } from './api';
import { memberName, muteLeft, speakRefusal } from './logic';
import { useNow } from './useNow';

export interface GroupChat {
  group: Group | undefined;
  /** why this member may not send now (the composer gives way to a notice), or null */
  refusal: ReturnType<typeof speakRefusal>;
  /** how long this member stays muted, ms */
  muteLeft: number;
  /** the members' names in the group, by member id */
  memberNames: Map<string, string>;
}

/** The group of an open group chat (groupId null for a friend chat) and whether one may speak in it. */
export function useGroupChat(groupId: string | null, me: string): GroupChat {
  const group = useGroup(groupId).data;
  const members = useGroupMembers(groupId).data;
  const mine = members?.find((member) => member.memberId === me);
  const memberNames = useMemo(
    () => new Map((members ?? []).map((member) => [member.memberId, memberName(member)])),
    [members],
  );
  const now = useNow(muteLeft(mine, Date.now()) > 0);
  const left = muteLeft(mine, now);
  useEffect(() => {
    if (groupId) rememberGroupChat(groupId);
  }, [groupId]);
  return { group, refusal: group ? speakRefusal(group, mine, now) : null, muteLeft: left, memberNames };
}
