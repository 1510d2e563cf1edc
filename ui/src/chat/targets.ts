// The chats a forward or a contact card can go to: friends and the conversation list, once each.
import type { Friend, Session } from '../api/types';

export interface Target {
  id: string;
  name: string;
  remark: string;
  code: string;
  headUrl: string;
  /** a group chat (only when groups are asked for) */
  group?: boolean;
}

export function targetName(target: Pick<Target, 'remark' | 'name' | 'code'>): string {
  return target.remark.trim() || target.name.trim() || target.code.trim();
}

/** Recent friend chats (and group chats, with `groups`) first in list order, then the other friends; `exclude` left out. */
export function mergeTargets(sessions: Session[], friends: Friend[], exclude: string[] = [], groups = false): Target[] {
  const out = new Map<string, Target>();
  const friendById = new Map(friends.map((friend) => [friend.id, friend]));
  for (const session of sessions) {
    if (exclude.includes(session.id)) continue;
    if (session.chatType === 'Group') {
      if (groups) out.set(session.id, { id: session.id, name: session.name, remark: '', code: '', headUrl: session.headUrl, group: true });
      continue;
    }
    if (session.chatType !== 'Friend') continue;
    const friend = friendById.get(session.id);
    if (!friend) continue;
    out.set(session.id, {
      id: session.id,
      name: session.name || friend.name,
      remark: session.remark || friend.remark || '',
      code: friend.code ?? '',
      headUrl: session.headUrl || friend.headUrl || '',
    });
  }
  for (const friend of friends) {
    if (out.has(friend.id) || exclude.includes(friend.id)) continue;
    out.set(friend.id, {
      id: friend.id,
      name: friend.name,
      remark: friend.remark ?? '',
      code: friend.code ?? '',
      headUrl: friend.headUrl ?? '',
    });
  }
  return [...out.values()];
}

/** Targets whose remark, name or account contains the query (case-insensitive). */
export function filterTargets(targets: Target[], query: string): Target[] {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return targets;
  return targets.filter((target) =>
    [target.remark, target.name, target.code].some((field) => field.toLocaleLowerCase().includes(q)),
  );
}
