// Writes into liveMessagesAtom from outside React (send path, websocket pushes).
import type { Message } from '../api/types';
import { liveMessagesAtom } from '../state/chat';
import { appStore } from '../state/store';

/** Live messages kept per conversation; older ones are in the history pages anyway. */
const LIVE_KEEP = 200;

export function upsertLive(peerId: string, message: Message): void {
  appStore.set(liveMessagesAtom, (all) => {
    const list = all[peerId] ?? [];
    const key = message.uuid || message.id;
    const index = list.findIndex((item) => (item.uuid || item.id) === key);
    const next =
      index < 0 ? [...list, message].slice(-LIVE_KEEP) : list.map((item, i) => (i === index ? message : item));
    return { ...all, [peerId]: next };
  });
}

export function patchLive(peerId: string, uuid: string, patch: (message: Message) => Message): void {
  appStore.set(liveMessagesAtom, (all) => {
    const list = all[peerId];
    if (!list?.some((item) => item.uuid === uuid)) return all;
    return { ...all, [peerId]: list.map((item) => (item.uuid === uuid ? patch(item) : item)) };
  });
}

/** After a reconnect only failed sends stay outside the open chat (spec messaging.md section 4). */
export function keepOnlyFailedOutside(openPeerId: string | null): void {
  appStore.set(liveMessagesAtom, (all) => {
    const next: Record<string, Message[]> = {};
    for (const [peerId, list] of Object.entries(all)) {
      next[peerId] = peerId === openPeerId ? list : list.filter((item) => item.msgStatus === 'failedSent');
    }
    return next;
  });
}
