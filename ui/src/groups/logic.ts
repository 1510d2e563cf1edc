// Pure rules of the group screens: the role matrix of spec section 6 (as the server's policy
// holds it, adapters/authz/policy.csv), the sort orders, form checks and the mute countdown.
import type { Group, GroupMember, GroupRole } from '../api/types';
import type { MessageKey } from '../i18n';

export const MAX_INVITE = 100;
export const MAX_AVATAR_BYTES = 5_000_000;
/** Per-member mute lengths offered, in minutes (the server takes at most 30 days). */
export const MUTE_MINUTES = [10, 60, 12 * 60, 24 * 60, 7 * 24 * 60, 30 * 24 * 60] as const;

const RANK: Record<GroupRole, number> = { Owner: 3, Admin: 2, Normal: 1 };

/** What a member does to the group itself. */
export type GroupAction =
  | 'invite'
  | 'nickname'
  | 'modify'
  | 'viewMember'
  | 'muteAll'
  | 'sendRate'
  | 'allowLeave'
  | 'transfer'
  | 'dissolve';

const LEAST_ROLE: Record<GroupAction, GroupRole> = {
  invite: 'Normal',
  nickname: 'Normal',
  modify: 'Admin',
  viewMember: 'Admin',
  muteAll: 'Admin',
  sendRate: 'Admin',
  allowLeave: 'Owner',
  transfer: 'Owner',
  dissolve: 'Owner',
};

export function may(role: GroupRole | undefined, action: GroupAction): boolean {
  return !!role && RANK[role] >= RANK[LEAST_ROLE[action]];
}

/** The owner never leaves (transfer or dissolve instead); a Normal member only while leaving is allowed. */
export function canLeave(group: Pick<Group, 'myRole' | 'allowLeave'>): boolean {
  return group.myRole === 'Admin' || (group.myRole === 'Normal' && group.allowLeave);
}

/** What a member does to another member. */
export type MemberAction = 'makeAdmin' | 'makeNormal' | 'mute' | 'unmute' | 'remove' | 'transfer';

/** A member acts only on members of a lower role; roles are the owner's to give. */
export function memberActions(
  myRole: GroupRole | undefined,
  me: string,
  target: Pick<GroupMember, 'memberId' | 'role' | 'mutedUntil'>,
  now: number,
): MemberAction[] {
  if (!myRole || target.memberId === me || RANK[myRole] <= RANK[target.role]) return [];
  const actions: MemberAction[] = [];
  if (myRole === 'Owner') actions.push(target.role === 'Admin' ? 'makeNormal' : 'makeAdmin');
  actions.push(target.mutedUntil > now ? 'unmute' : 'mute', 'remove');
  if (myRole === 'Owner') actions.push('transfer');
  return actions;
}

function startsWithDigit(name: string): boolean {
  return /^\d/.test(name.trim());
}

/** By name, names starting with a digit last (spec section 9). */
export function sortGroups<T extends { name: string }>(groups: readonly T[]): T[] {
  return [...groups].sort((a, b) => {
    const digits = Number(startsWithDigit(a.name)) - Number(startsWithDigit(b.name));
    return digits !== 0 ? digits : a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
  });
}

export function filterGroups<T extends { name: string }>(groups: readonly T[], query: string): T[] {
  const needle = query.trim().toLowerCase();
  return needle ? groups.filter((group) => group.name.toLowerCase().includes(needle)) : [...groups];
}

/** The owner first, then the admins, then the others, each by joining time. */
export function orderMembers<T extends Pick<GroupMember, 'role' | 'joinTime'>>(members: readonly T[]): T[] {
  return [...members].sort((a, b) => RANK[b.role] - RANK[a.role] || a.joinTime - b.joinTime);
}

/** A member's name in the group: the nickname there, else the account name. */
export function memberName(member: Pick<GroupMember, 'nickname' | 'name' | 'memberId'>): string {
  return member.nickname.trim() || member.name.trim() || member.memberId;
}

export function filterMembers<T extends Pick<GroupMember, 'nickname' | 'name' | 'memberId'>>(
  members: readonly T[],
  query: string,
): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...members];
  return members.filter(
    (member) => member.nickname.toLowerCase().includes(needle) || member.name.toLowerCase().includes(needle),
  );
}

export function createRefusal(name: string, memberIds: readonly string[]): MessageKey | null {
  if (!name.trim()) return 'group.nameEmpty';
  if (memberIds.length === 0) return 'group.pickMembers';
  if (memberIds.length > MAX_INVITE) return 'group.tooMany';
  return null;
}

/** A group avatar is a still image under 5 MB: no animated gif. */
export function avatarRefusal(file: { type: string; size: number }): MessageKey | null {
  if (!file.type.startsWith('image/')) return 'group.avatarNotImage';
  if (file.type === 'image/gif') return 'group.avatarGif';
  if (file.size >= MAX_AVATAR_BYTES) return 'group.avatarTooLarge';
  return null;
}

/** How long a member stays muted, ms; 0 when it may speak. */
export function muteLeft(member: Pick<GroupMember, 'mutedUntil'> | undefined, now: number): number {
  return member ? Math.max(0, member.mutedUntil - now) : 0;
}

/** How long a timed whole-group mute still lasts, ms; 0 when there is none or it lasts until lifted. */
export function groupMuteLeft(group: Pick<Group, 'muteAll' | 'muteAllUntil'> | undefined, now: number): number {
  return group?.muteAll && group.muteAllUntil ? Math.max(0, group.muteAllUntil - now) : 0;
}

/** Whether the whole group is muted at now. */
export function groupMuted(group: Pick<Group, 'muteAll' | 'muteAllUntil'>, now: number): boolean {
  return group.muteAll && (!group.muteAllUntil || group.muteAllUntil > now);
}

/** Why this member may not send in the group now, or null: a muted group silences its Normal members. */
export function speakRefusal(
  group: Pick<Group, 'muteAll' | 'muteAllUntil' | 'myRole'>,
  me: Pick<GroupMember, 'mutedUntil'> | undefined,
  now: number,
): 'groupMuted' | 'memberMuted' | null {
  if (muteLeft(me, now) > 0) return 'memberMuted';
  if (groupMuted(group, now) && group.myRole === 'Normal') return 'groupMuted';
  return null;
}

const two = (n: number) => String(n).padStart(2, '0');

/** A mute's countdown: "hh:mm:ss", with the days ahead of it ("3d 04:05:06") from a day on. */
export function formatCountdown(ms: number, dayUnit = 'd'): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const days = Math.floor(total / 86_400);
  const clock = `${two(Math.floor((total % 86_400) / 3600))}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`;
  return days > 0 ? `${days}${dayUnit} ${clock}` : clock;
}
