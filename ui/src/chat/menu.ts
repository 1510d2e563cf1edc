// The actions a message's menu offers (docs/api-messages.md, Rules).
import type { Message } from '../api/types';
import { canForward } from './forward';
import { timeOf } from './changes';

export const RECALL_WINDOW_MS = 24 * 60 * 60 * 1000;

export type MessageAction =
  | 'reply'
  | 'edit'
  | 'recall'
  | 'copy'
  | 'forward'
  | 'select'
  | 'favourite'
  | 'deleteForMe'
  | 'deleteForEveryone'
  | 'pin'
  | 'unpin'
  | 'readers';

const EDITABLE_TYPES = new Set(['Text', 'AtText', 'Reply']);

/** Text that Copy puts on the clipboard; empty for messages without text. */
export function copyText(message: Message): string {
  if (message.recalled) return '';
  const type = message.msgType === 'Forward' ? (message.forwardType ?? 'Text') : message.msgType;
  return EDITABLE_TYPES.has(type) || type === 'Event' ? message.content : '';
}

export function messageActions(message: Message, me: string, now: number): MessageAction[] {
  const own = message.from === me;
  const onServer = !!message.id && message.msgStatus !== 'sending' && message.msgStatus !== 'failedSent';
  const actions: MessageAction[] = [];
  if (!onServer) return copyText(message) ? ['copy'] : [];
  if (message.recalled || message.msgType === 'Event') return ['deleteForMe'];
  actions.push('reply');
  if (own && EDITABLE_TYPES.has(message.msgType)) actions.push('edit');
  if (own && now - timeOf(message) <= RECALL_WINDOW_MS) actions.push('recall');
  if (copyText(message)) actions.push('copy');
  if (canForward(message)) actions.push('forward', 'select', 'favourite');
  actions.push('deleteForMe');
  if (own) actions.push('deleteForEveryone');
  return actions;
}
