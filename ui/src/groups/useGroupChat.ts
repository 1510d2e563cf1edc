import { useEffect, useMemo, useRef } from 'react';
import { senderTones, type Mention } from './chatLogic';
import type { Group } from '../api/types';
import { rememberGroupChat } from '../chat/address';
import { useGroup, useGroupMembers } from './api';
import { groupMuteLeft, memberName, muteLeft, speakRefusal } from './logic';
import { useNow } from './useNow';

export interface GroupChat {
  group: Group | undefined;
  /** why this member may not send now (the composer gives way to a notice), or null */
  refusal: ReturnType<typeof speakRefusal>;
  /** how long this member stays muted, ms */
  muteLeft: number;
  /** the members' names in the group, by member id (members seen before, e.g. removed since, too) */
  memberNames: Map<string, string>;
  /** the members' pictures, by member id, kept like the names */
  memberHeads: Map<string, string>;
  /** the current members, for the mention picker */
  mentionable: Mention[];
  /** the current members' sender-name colours, by member id */
  tones: Map<string, number>;
}

/** The group of an open group chat (groupId null for a friend chat) and whether one may speak in it. */
export function useGroupChat(groupId: string | null, me: string): GroupChat {
  const group = useGroup(groupId).data;
  const members = useGroupMembers(groupId).data;
  const mine = members?.find((member) => member.memberId === me);
  // Names stay known after a member leaves or is removed, for the system lines about them.
  const seen = useRef(new Map<string, string>());
  const seenHeads = useRef(new Map<string, string>());
  const [memberNames, memberHeads] = useMemo(() => {
    for (const member of members ?? []) {
      seen.current.set(member.memberId, memberName(member));
      seenHeads.current.set(member.memberId, member.headUrl);
    }
    return [new Map(seen.current), new Map(seenHeads.current)];
  }, [members]);
  const mentionable = useMemo(
    () => (members ?? []).map((member) => ({ id: member.memberId, name: memberName(member), headUrl: member.headUrl })),
    [members],
  );
  const tones = useMemo(() => senderTones(members ?? []), [members]);
  const now = useNow(muteLeft(mine, Date.now()) > 0 || groupMuteLeft(group, Date.now()) > 0);
  const refusal = group ? speakRefusal(group, mine, now) : null;
  const left = refusal === 'groupMuted' ? groupMuteLeft(group, now) : muteLeft(mine, now);
  useEffect(() => {
    if (groupId) rememberGroupChat(groupId);
  }, [groupId]);
  return { group, refusal, muteLeft: left, memberNames, memberHeads, mentionable, tones };
}
