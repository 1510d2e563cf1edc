import { getFetcher, request } from './http';
import type {
  Apply,
  ChatAddress,
  ChatType,
  ForwardResult,
  ForwardTarget,
  LoginResult,
  Message,
  PublicInfo,
  SendBody,
  SendResult,
  UserInfo,
} from './types';

export const SEND_TIMEOUT_MS = 15_000;

export type SmsType = 'register' | 'reset' | 'login';

export function sendSmsCode(phone: string, type: SmsType): Promise<null> {
  const query = new URLSearchParams({ phone, type });
  // The caller says what failed: the server's text alone does not.
  return request<null>('GET', `/v1/member/sms/send?${query}`, { quiet: true });
}

export interface RegisterBody {
  phone: string;
  smsCode: string;
  account: string;
  password: string;
  tenantCode: string;
  /** the inviter's code from a registration link (getRefereeLink), when there is one */
  inviteCode?: string;
}

export function register(body: RegisterBody): Promise<UserInfo> {
  return request<UserInfo>('POST', '/v1/member/memberInfo/register', { body, quiet: true });
}

export interface LoginBody {
  account: string;
  password: string;
  tenantCode: string;
}

export function login(body: LoginBody): Promise<LoginResult> {
  return request<LoginResult>('POST', '/v1/member/memberInfo/login', { body });
}

/** The signed-in member's profile, after the server has folded position (push 46 carries none). */
export function fetchMe(): Promise<UserInfo> {
  return getFetcher<UserInfo>('/v1/member/memberInfo/getMemberByToken');
}

export function logoutOnServer(): Promise<null> {
  return request<null>('GET', '/v1/member/memberInfo/logout', { quiet: true });
}

/** Resolves null when nobody in the tenant has this account or phone (404). */
export async function findMember(keyword: string): Promise<PublicInfo | null> {
  const query = new URLSearchParams({ keyword });
  try {
    return await request<PublicInfo>('GET', `/v1/member/memberInfo/getMemberByCodeOrUsername?${query}`, {
      quiet: true,
    });
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

export interface Written {
  id: string;
  position: number;
}

export function requestFriend(friendMemberId: string, remark: string, content: string): Promise<Written> {
  return request<Written>('POST', '/v1/chat/applyInfo/build', { body: { friendMemberId, remark, content } });
}

export function answerFriendRequest(
  id: string,
  status: 'accepted' | 'rejected',
): Promise<Written & { status: Apply['status'] }> {
  return request('PUT', '/v1/chat/applyInfo/modify', { body: { id, status } });
}

export function sendMessage(body: SendBody): Promise<SendResult> {
  return request<SendResult>('POST', '/v1/message/send', { body, timeoutMs: SEND_TIMEOUT_MS, quiet: true });
}

// The message life (docs/api-messages.md). Errors show as toasts unless the caller says otherwise.

export function replyMessage(body: SendBody): Promise<SendResult> {
  return request<SendResult>('PUT', '/v1/message/reply', { body, timeoutMs: SEND_TIMEOUT_MS, quiet: true });
}

export function modifyMessage(
  id: string,
  content: string,
): Promise<{ id: string; content: string; editTime: number; position: number }> {
  return request('PUT', '/v1/message/modify', { body: { id, content } });
}

export function recallMessage(id: string): Promise<{ id: string; recallTime: number; position: number }> {
  return request('PUT', '/v1/message/recall', { body: { id } });
}

export function deleteForMe(messageIds: string[]): Promise<{ messageIds: string[]; position: number }> {
  return request('POST', '/v1/message/deleteMessage', { body: { messageIds } });
}

export function deleteForEveryone(
  friendMemberId: string,
  messageIds: string[],
): Promise<{ messageIds: string[]; position: number }> {
  return request('DELETE', '/v1/chat/friendInfo/deleteRemoteFriendMessage', {
    body: { friendMemberId, messageIds, deleteMessageType: 'Bilateral' },
  });
}

export function forwardMessages(uuid: string, messageIds: string[], targets: ForwardTarget[]): Promise<ForwardResult> {
  return request('POST', '/v1/message/forward', { body: { uuid, messageIds, targets } });
}

export function shareContact(uuid: string, address: ChatAddress, memberId: string): Promise<SendResult> {
  return request('POST', '/v1/message/shareContact', { body: { uuid, ...address, memberId } });
}

/** The messages visible to this member, in the order asked; deleted ones are left out. */
export function getMessagesByIds(ids: string[]): Promise<Message[]> {
  return request<Message[]>('POST', '/v1/message/messagePush/getMessageByIds', { body: ids, quiet: true });
}

export function clearHistory(peerId: string, chatType: ChatType = 'Friend'): Promise<{ upTo: number; position: number }> {
  const body = chatType === 'Group' ? { chatType, groupId: peerId } : { chatType, friendMemberId: peerId };
  return request('POST', '/v1/message/clearHistory', { body });
}

/** Deletes group messages for every member: the group's owner and admins only. */
export function deleteGroupMessagesForEveryone(
  groupId: string,
  messageIds: string[],
): Promise<{ messageIds: string[]; position: number }> {
  return request('DELETE', '/v1/chat/groupInfo/deleteRemoteGroupMessage', { body: { groupId, messageIds } });
}

/** Names a conversation in the topInfo and sessionInfo calls. */
export interface ConversationRef {
  chatType: 'Friend';
  friendMemberId: string;
}

export interface Changed {
  position: number;
}

// Conversation actions: the caller shows failures (the pin cap's 20065 has its own notice).
export function pinConversation(ref: ConversationRef): Promise<Changed> {
  return request<Changed>('POST', '/v1/chat/topInfo/build', { body: ref, quiet: true });
}

export function unpinConversation(ref: ConversationRef): Promise<Changed> {
  return request<Changed>('DELETE', '/v1/chat/topInfo/delete', { body: ref, quiet: true });
}

export function setDoNotDisturb(ref: ConversationRef, on: boolean): Promise<Changed> {
  return request<Changed>('PUT', '/v1/message/sessionInfo/dnd', { body: { ...ref, on }, quiet: true });
}

export function markConversationUnread(ref: ConversationRef): Promise<Changed> {
  return request<Changed>('PUT', '/v1/message/sessionInfo/markUnread', { body: ref, quiet: true });
}

export function markConversationRead(ref: ConversationRef): Promise<Changed> {
  return request<Changed>('PUT', '/v1/message/sessionInfo/markRead', { body: ref, quiet: true });
}

export function removeConversation(ref: ConversationRef): Promise<Changed> {
  return request<Changed>('PUT', '/v1/message/sessionInfo/remove', { body: ref, quiet: true });
}

/** Acknowledges every mention of this member in a conversation (a friend or a group id). */
export function ackMentions(sessionId: string): Promise<Changed> {
  return request<Changed>('POST', '/v1/message/messagePush/at/ack/sessionId', { body: { sessionId }, quiet: true });
}
