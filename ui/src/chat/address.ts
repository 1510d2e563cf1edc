// A conversation is kept under one id: the friend's member id or the group id (both snowflakes,
// never equal). These helpers say how to address it and which conversation a message is in.
import type { ChatAddress, ChatType, Message } from '../api/types';
import { groupChatsAtom } from '../state/chat';
import { appStore } from '../state/store';
import { peerOf } from './sessions';

export function rememberGroupChat(groupId: string): void {
  if (!appStore.get(groupChatsAtom)[groupId]) appStore.set(groupChatsAtom, (all) => ({ ...all, [groupId]: true }));
}

export function chatTypeOf(peerId: string): ChatType {
  return appStore.get(groupChatsAtom)[peerId] ? 'Group' : 'Friend';
}

export function addressOf(peerId: string): ChatAddress {
  return chatTypeOf(peerId) === 'Group' ? { chatType: 'Group', groupId: peerId } : { chatType: 'Friend', to: peerId };
}

/** Where a message goes: its group, or the friend it is sent to. */
export function addressOfMessage(message: Pick<Message, 'chatType' | 'groupId' | 'to'>): ChatAddress {
  return message.chatType === 'Group' ? { chatType: 'Group', groupId: message.groupId } : { chatType: 'Friend', to: message.to };
}

/** The conversation id of a message: its group, or the friend on the other side. */
export function conversationOf(message: Pick<Message, 'chatType' | 'groupId' | 'from' | 'to'>, me: string): string {
  return message.chatType === 'Group' ? message.groupId : peerOf(message, me);
}
