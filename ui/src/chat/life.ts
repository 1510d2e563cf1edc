// Applies edits, recalls, deletions and clears, from one's own calls and from pushes 16, 30 and
// 34, to the open timeline and the session list.
import type { Message } from '../api/types';
import { messageChangesAtom } from '../state/chat';
import { appStore } from '../state/store';
import { noChanges, withCleared, withEdit, withRecall, withRemoved, type MessageChanges } from './changes';
import { queueSessionUpdate, refetchSessions } from './sessionCache';
import { sessionAfterClear, sessionAfterEdit, sessionAfterRecall, sessionAfterRemoval } from './sessions';

/** The timeline each open chat shows, kept by the chat view for the preview fallback. */
const shown = new Map<string, Message[]>();

export function rememberTimeline(peerId: string, timeline: Message[]): void {
  shown.set(peerId, timeline);
}

export function forgetTimeline(peerId: string): void {
  shown.delete(peerId);
}

function change(peerId: string, update: (changes: MessageChanges) => MessageChanges): void {
  appStore.set(messageChangesAtom, (all) => ({ ...all, [peerId]: update(all[peerId] ?? noChanges) }));
}

export function applyEdit(peerId: string, id: string, content: string, editTime: number, position?: number): void {
  change(peerId, (changes) => withEdit(changes, id, content, editTime));
  queueSessionUpdate((list) => sessionAfterEdit(list, peerId, id, content), position);
}

export function applyRecall(peerId: string, ids: string[], time: number, position?: number): void {
  change(peerId, (changes) => withRecall(changes, ids, time));
  queueSessionUpdate((list) => sessionAfterRecall(list, peerId, ids), position);
}

/** Drops the messages and refreshes the chat's preview; the server's list follows past `position`. */
export function applyRemoval(peerId: string, ids: string[], position?: number): void {
  change(peerId, (changes) => withRemoved(changes, ids));
  const remaining = shown.get(peerId) ?? [];
  queueSessionUpdate((list) => sessionAfterRemoval(list, peerId, ids, remaining));
  if (position) refetchSessions(position);
}

export function applyClear(peerId: string, upTo: number, position?: number): void {
  change(peerId, (changes) => withCleared(changes, upTo));
  queueSessionUpdate((list) => sessionAfterClear(list, peerId, upTo));
  if (position) refetchSessions(position);
}
