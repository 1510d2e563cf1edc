// Friends' online state: the friend list's isOnline, overridden by the 33 pushes received since
// the socket (re)opened. A reconnect drops the overrides and reloads the list.
import { atom } from 'jotai';
import type { Friend, OnlinePush, SystemInfo } from '../api/types';
import { appStore } from './store';

/** member id -> online, from 33 pushes */
export const presenceAtom = atom<Record<string, boolean>>({});

export function applyOnline(push: OnlinePush | undefined): void {
  if (!push || typeof push.memberId !== 'string' || !push.memberId) return;
  appStore.set(presenceAtom, (all) => ({ ...all, [push.memberId]: push.online === true }));
}

export function resetPresence(): void {
  appStore.set(presenceAtom, {});
}

export function isOnline(presence: Record<string, boolean>, friend: Pick<Friend, 'id' | 'isOnline'>): boolean {
  return presence[friend.id] ?? friend.isOnline === true;
}

/** Calls are offered unless the tenant's system info turns them off (hasVoiceCall). */
export function callsEnabled(info: SystemInfo | undefined): boolean {
  return info?.hasVoiceCall !== false;
}
