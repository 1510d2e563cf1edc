// The System-level account (spec accounts.md section 3): shown as 'activity administrator' with
// its own default avatar, and left out of the friend pickers (invite, new group, mass send, forward).
import type { Translate } from '../i18n';
import { displayName } from './SessionItem';

export const SYSTEM_LEVEL = 'System';

export function isSystemAccount(who: { memberLevelCode?: string } | null | undefined): boolean {
  return who?.memberLevelCode === SYSTEM_LEVEL;
}

/** The name a friend or chat shows: the System account's is always 'activity administrator'. */
export function shownName(who: { remark?: string; name?: string; code?: string; memberLevelCode?: string }, t: Translate): string {
  return isSystemAccount(who) ? t('system.activityAdmin') : displayName(who);
}

/** The level code of a friend, by member id, from the friend list. */
export function levelOf(groups: { friends: { id: string; memberLevelCode: string }[] }[] | undefined, memberId: string): string {
  for (const group of groups ?? []) {
    const friend = group.friends.find((item) => item.id === memberId);
    if (friend) return friend.memberLevelCode;
  }
  return '';
}
