// Which messages can be forwarded and the multi-select rules (spec messaging.md sections 5, 8).
import type { Message } from '../api/types';
import type { MessageKey } from '../i18n';
import { compareIds } from './ids';

export const FORWARD_MAX = 10;
export const FORWARD_TARGETS_MAX = 100;

const NOT_FORWARDABLE_TYPES = new Set(['Event', 'VoiceCall', 'VideoCall']);

/** A forward id shorter than 5 characters after an underscore is refused (local, unsent ids). */
export function forwardIdOk(id: string): boolean {
  if (!id) return false;
  const underscore = id.lastIndexOf('_');
  return underscore < 0 || id.length - underscore - 1 >= 5;
}

export function canForward(message: Message): boolean {
  return (
    !message.recalled &&
    !NOT_FORWARDABLE_TYPES.has(message.msgType) &&
    message.msgStatus !== 'sending' &&
    message.msgStatus !== 'failedSent' &&
    forwardIdOk(message.id)
  );
}

export interface Toggle {
  selected: string[];
  /** why the message was not added */
  refusal?: MessageKey;
}

/** Adds or removes a message from the selection: at most 10, forwardable ones only. */
export function toggleSelection(selected: string[], message: Message): Toggle {
  if (selected.includes(message.id)) return { selected: selected.filter((id) => id !== message.id) };
  if (!canForward(message)) return { selected, refusal: 'forward.unsupported' };
  if (selected.length >= FORWARD_MAX) return { selected, refusal: 'forward.tooMany' };
  return { selected: [...selected, message.id] };
}

/** What stops a forward of these ids, if anything. */
export function forwardRefusal(ids: string[]): MessageKey | undefined {
  if (ids.length === 0) return 'forward.none';
  if (ids.length > FORWARD_MAX) return 'forward.tooMany';
  return undefined;
}

/** The selected ids in chat order (oldest first), as the forward call keeps the order given. */
export function inChatOrder(ids: string[], timeline: Message[]): string[] {
  const position = new Map(timeline.map((m, i) => [m.id, i]));
  return [...ids].sort((a, b) => {
    const pa = position.get(a);
    const pb = position.get(b);
    if (pa !== undefined && pb !== undefined) return pa - pb;
    return compareIds(a, b);
  });
}
