// Writes into liveMessagesAtom from outside React (send path, websocket pushes).
import type { Message } from '../api/types';
import { liveDroppedAtom, liveMessagesAtom } from '../state/chat';
import { appStore } from '../state/store';
import { MAX_RENDERED } from './window';

/**
 * Live messages kept per conversation, as many as the message list renders. What is dropped is
 * noted in liveDroppedAtom: the open chat then reloads its history (timeline.ts, historyBehind),
 * so that the dropped messages are in its pages.
 */
const LIVE_KEEP = MAX_RENDERED;

export function upsertLive(peerId: string, message: Message, keep = LIVE_KEEP): void {
  let dropped: Message[] = [];
  appStore.set(liveMessagesAtom, (all) => {
    const list = all[peerId] ?? [];
    const key = message.uuid || message.id;
    const index = list.findIndex((item) => (item.uuid || item.id) === key);
    if (index >= 0) return { ...all, [peerId]: list.map((item, i) => (i === index ? message : item)) };
    const next = [...list, message];
    dropped = next.splice(0, Math.max(0, next.length - keep));
    return { ...all, [peerId]: next };
  });
  if (dropped.length === 0) return;
  const upTo = Math.max(...dropped.map((item) => item.serverReceiveTime || item.createTime));
  appStore.set(liveDroppedAtom, (all) => ({ ...all, [peerId]: Math.max(all[peerId] ?? 0, upTo) }));
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
