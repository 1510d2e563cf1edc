// Edits, recalls, deletions and clears known to this page, per conversation, laid over the
// history pages and live messages (docs/api-messages.md). Pure: the push handlers and the
// action calls fold into it, the chat view applies it.
import type { Message } from '../api/types';

export interface MessageChanges {
  edits: Record<string, { content: string; editTime: number }>;
  recalls: Record<string, { recallTime: number }>;
  removed: Record<string, true>;
  /** messages sent up to this time (ms) are cleared for this member */
  clearedUpTo: number;
}

export const noChanges: MessageChanges = { edits: {}, recalls: {}, removed: {}, clearedUpTo: 0 };

export function withEdit(changes: MessageChanges, id: string, content: string, editTime: number): MessageChanges {
  const known = changes.edits[id];
  if (known && known.editTime > editTime) return changes;
  return { ...changes, edits: { ...changes.edits, [id]: { content, editTime } } };
}

export function withRecall(changes: MessageChanges, ids: string[], recallTime: number): MessageChanges {
  const recalls = { ...changes.recalls };
  for (const id of ids) recalls[id] ??= { recallTime };
  return { ...changes, recalls };
}

export function withRemoved(changes: MessageChanges, ids: string[]): MessageChanges {
  const removed = { ...changes.removed };
  for (const id of ids) removed[id] = true;
  return { ...changes, removed };
}

export function withCleared(changes: MessageChanges, upTo: number): MessageChanges {
  return upTo > changes.clearedUpTo ? { ...changes, clearedUpTo: upTo } : changes;
}

export function timeOf(message: Pick<Message, 'serverReceiveTime' | 'createTime'>): number {
  return message.serverReceiveTime || message.createTime;
}

/** System lines: events and recalled messages. */
export function isEventLike(message: Message): boolean {
  return message.msgType === 'Event' || !!message.recalled;
}

function eventText(message: Message): string {
  return message.recalled ? `recalled:${message.from}` : `event:${message.content}`;
}

function patched(message: Message, changes: MessageChanges): Message {
  let next = message;
  const edit = message.id ? changes.edits[message.id] : undefined;
  if (edit && edit.editTime >= (message.editTime ?? 0) && !message.recalled) {
    next = { ...next, content: edit.content, edited: true, editTime: edit.editTime };
  }
  const recall = message.id ? changes.recalls[message.id] : undefined;
  if (recall && !next.recalled) next = { ...next, recalled: true, recallTime: recall.recallTime, content: '' };
  return next;
}

function isGone(message: Message, changes: MessageChanges): boolean {
  if (message.id && changes.removed[message.id]) return true;
  return !!message.id && changes.clearedUpTo > 0 && timeOf(message) <= changes.clearedUpTo;
}

/**
 * The timeline with the changes applied. Where messages were removed, the event lines that
 * become neighbours and say the same merge into the newer one (spec messaging.md section 4).
 */
export function applyChanges(timeline: Message[], changes: MessageChanges | undefined): Message[] {
  if (!changes) return timeline;
  const out: Message[] = [];
  let removedSinceLast = false;
  for (const original of timeline) {
    if (isGone(original, changes)) {
      removedSinceLast = true;
      continue;
    }
    const message = patched(original, changes);
    const previous = out[out.length - 1];
    if (
      removedSinceLast &&
      previous &&
      isEventLike(previous) &&
      isEventLike(message) &&
      eventText(previous) === eventText(message)
    ) {
      out[out.length - 1] = message;
    } else {
      out.push(message);
    }
    removedSinceLast = false;
  }
  return out;
}

/** Deleting one message of a forwarded batch deletes the whole batch: the ids with their batch mates. */
export function expandForwardBatches(timeline: Message[], ids: string[]): string[] {
  const wanted = new Set(ids);
  const batches = new Set(
    timeline.filter((m) => wanted.has(m.id) && m.forwardBatchId).map((m) => m.forwardBatchId as string),
  );
  const out = [...ids];
  for (const message of timeline) {
    if (message.forwardBatchId && batches.has(message.forwardBatchId) && !wanted.has(message.id)) {
      wanted.add(message.id);
      out.push(message.id);
    }
  }
  return out;
}
