import { request } from './http';
import type { Apply, LoginResult, PublicInfo, SendBody, SendResult, UserInfo } from './types';

export const SEND_TIMEOUT_MS = 15_000;

export type SmsType = 'register' | 'reset' | 'login';

export function sendSmsCode(phone: string, type: SmsType): Promise<null> {
  const query = new URLSearchParams({ phone, type });
  return request<null>('GET', `/v1/member/sms/send?${query}`);
}

export interface RegisterBody {
  phone: string;
  smsCode: string;
  account: string;
  password: string;
  tenantCode: string;
}

export function register(body: RegisterBody): Promise<UserInfo> {
  return request<UserInfo>('POST', '/v1/member/memberInfo/register', { body });
}

export interface LoginBody {
  account: string;
  password: string;
  tenantCode: string;
}

export function login(body: LoginBody): Promise<LoginResult> {
  return request<LoginResult>('POST', '/v1/member/memberInfo/login', { body });
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
