// Calls and swr hooks of groups (docs/api-groups.md). Writes answer the position of their event;
// the lists are read again at that position, so a screen shows its own change at once.
import { useAtomValue } from 'jotai';
import useSWR, { mutate } from 'swr';
import { getFetcher, request } from '../api/http';
import { withAfter } from '../api/keys';
import type { Group, GroupMember, GroupRole, Message, MyGroups, SendRate } from '../api/types';
import { authAtom } from '../auth/authState';

/** Spec section 9: group list fetched at most once a second, group info and members every 1.5 s. */
const LIST_THROTTLE_MS = 1000;
const GROUP_THROTTLE_MS = 1500;

export const groupKeys = {
  mine: '/v1/chat/groupInfo/listMemberInGroup',
  info(groupId: string): string {
    return `/v1/chat/groupInfo/getGroupInfoByGroupId?${new URLSearchParams({ groupId })}`;
  },
  members(groupId: string): string {
    return `/v1/chat/groupInfo/listGroupMember?${new URLSearchParams({ groupId })}`;
  },
};

function useSignedIn(): boolean {
  return useAtomValue(authAtom) !== null;
}

export function useMyGroups() {
  return useSWR<MyGroups>(useSignedIn() ? groupKeys.mine : null, { dedupingInterval: LIST_THROTTLE_MS });
}

export function useGroup(groupId: string | null) {
  return useSWR<Group>(useSignedIn() && groupId ? groupKeys.info(groupId) : null, {
    dedupingInterval: GROUP_THROTTLE_MS,
  });
}

export function useGroupMembers(groupId: string | null) {
  return useSWR<GroupMember[]>(useSignedIn() && groupId ? groupKeys.members(groupId) : null, {
    dedupingInterval: GROUP_THROTTLE_MS,
  });
}

/**
 * Reads the group list, and one group's info and members, again once the server holds position;
 * a group this member has just left answers 404 and keeps its last state until its pane closes.
 */
export async function refreshGroup(groupId: string | null, position: number): Promise<void> {
  const keys = groupId ? [groupKeys.mine, groupKeys.info(groupId), groupKeys.members(groupId)] : [groupKeys.mine];
  await Promise.all(
    keys.map((key) =>
      (position > 0 ? mutate(key, getFetcher(withAfter(key, position)), { revalidate: false }) : mutate(key)).catch(
        () => undefined,
      ),
    ),
  );
}

interface Written {
  position: number;
}

export interface NewGroup {
  name: string;
  headUrl: string;
  notice: string;
  memberIds: string[];
}

// Refusals show the server's text as a toast (the spec's wording, in the page's language).

export function buildGroup(body: NewGroup): Promise<{ groupId: string; position: number }> {
  return request('POST', '/v1/chat/groupInfo/build', { body });
}

export function inviteToGroup(groupId: string, memberIds: string[]): Promise<Written> {
  return request('POST', '/v1/chat/applyInfo/batchMemberToGroup', { body: { groupId, memberIds } });
}

export interface GroupSettings {
  name?: string;
  notice?: string;
  headUrl?: string;
  sendRate?: SendRate;
  muteAll?: boolean;
  /** with muteAll true: the mute ends after that many minutes */
  muteAllMinutes?: number;
  allowLeave?: boolean;
}

export function modifyGroup(groupId: string, settings: GroupSettings): Promise<Written> {
  return request('PUT', '/v1/chat/groupInfo/modify', { body: { groupId, ...settings } });
}

export function setMemberRole(groupId: string, memberId: string, role: Exclude<GroupRole, 'Owner'>): Promise<Written> {
  return request('PUT', '/v1/chat/groupInfo/setMemberRole', { body: { groupId, memberId, role } });
}

export function removeMembers(groupId: string, memberIds: string[]): Promise<Written> {
  return request('PUT', '/v1/chat/groupInfo/deleteGroupMember', { body: { groupId, memberIds } });
}

export function muteMember(groupId: string, memberId: string, minutes: number): Promise<Written> {
  return request('PUT', '/v1/chat/groupInfo/muteMember', { body: { groupId, memberId, minutes } });
}

export function transferGroup(groupId: string, memberId: string): Promise<Written> {
  return request('PUT', '/v1/chat/groupInfo/transfer', { body: { groupId, memberId } });
}

export function setNickname(groupId: string, nickname: string): Promise<Written> {
  return request('PUT', '/v1/chat/groupInfo/modifyMemberNickname', { body: { groupId, nickname } });
}

export function leaveGroup(groupId: string): Promise<Written> {
  return request('PUT', '/v1/chat/groupInfo/leave', { body: { groupId } });
}

export function dissolveGroup(groupId: string): Promise<Written> {
  return request('DELETE', `/v1/chat/groupInfo/delete?${new URLSearchParams({ groupId })}`);
}

// Pinned messages of a group chat (docs/api-groups.md, "Pinned messages").

export function pinnedKey(groupId: string): string {
  return `/v1/chat/groupInfo/listPinnedMessage?${new URLSearchParams({ groupId })}`;
}

export function usePinnedMessages(groupId: string | null) {
  return useSWR<Message[]>(useSignedIn() && groupId ? pinnedKey(groupId) : null, { dedupingInterval: GROUP_THROTTLE_MS });
}

/** Reads the pinned list again once the server holds position. */
export async function refreshPinned(groupId: string, position: number): Promise<void> {
  const key = pinnedKey(groupId);
  await (position > 0 ? mutate(key, getFetcher(withAfter(key, position)), { revalidate: false }) : mutate(key)).catch(
    () => undefined,
  );
}

export function pinMessage(groupId: string, messageId: string): Promise<Written> {
  return request('POST', '/v1/chat/groupInfo/pinMessage', { body: { groupId, messageId } });
}

export function unpinMessage(groupId: string, messageId: string): Promise<Written> {
  return request('DELETE', '/v1/chat/groupInfo/unpinMessage', { body: { groupId, messageId } });
}

// Who has read a group message (docs/api-groups.md, "Who has read a message"): its sender asks.

export interface Reader {
  memberId: string;
  name: string;
  headUrl: string;
}

export interface MessageReaders {
  groupId: string;
  messageId: string;
  read: Reader[];
  unread: Reader[];
  readCount: number;
  unreadCount: number;
}

export function readersKey(groupId: string, messageId: string): string {
  return `/v1/chat/groupInfo/readers?${new URLSearchParams({ groupId, messageId })}`;
}

/** A member read messages of mine in a group (28): an open readers list reads again. */
export function refreshReaders(groupId: string): Promise<unknown> {
  const prefix = `/v1/chat/groupInfo/readers?${new URLSearchParams({ groupId })}&`;
  return mutate((key) => typeof key === 'string' && key.startsWith(prefix));
}

/** Read afresh each time the list opens: members read on while the sender looks elsewhere. */
export function useMessageReaders(groupId: string, messageId: string) {
  return useSWR<MessageReaders>(useSignedIn() ? readersKey(groupId, messageId) : null, {
    dedupingInterval: 0,
    revalidateOnMount: true,
  });
}

// Join requests: a Normal member's invitations wait for the owner or an admin.

export const groupApplyKeyPrefix = '/v1/chat/applyInfo/listGroupApplyInfo';
const GROUP_APPLY_KEY = `${groupApplyKeyPrefix}?curPage=1&pageSize=99`;

export interface GroupApply {
  id: string;
  groupId: string;
  groupName: string;
  memberId: string;
  inviterId: string;
  status: 'pending' | 'accepted' | 'rejected';
  createTime: number;
  updateTime: number;
  member?: { name?: string; headUrl?: string; code?: string };
  inviter?: { name?: string; headUrl?: string; code?: string };
}

/** The join requests of the groups this member owns or administers, newest first. */
export function useGroupApplies(enabled: boolean) {
  return useSWR<{ records: GroupApply[] }>(useSignedIn() && enabled ? GROUP_APPLY_KEY : null, {
    dedupingInterval: LIST_THROTTLE_MS,
  });
}

export async function answerGroupApply(id: string, status: 'accepted' | 'rejected'): Promise<Written> {
  const written = await request<Written>('PUT', '/v1/chat/applyInfo/modify', { body: { id, status } });
  await mutate(GROUP_APPLY_KEY);
  return written;
}
