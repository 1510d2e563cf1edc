// Calls of the profile, credentials, settings, feedback and friend management (docs/api-accounts.md).
import { mutate } from 'swr';
import { request } from '../api/http';
import { keys } from '../api/keys';
import type { UserInfo } from '../api/types';
import { currentAuth, updateUser } from '../auth/authState';

export interface Preferences {
  notifications: boolean;
  showMessageTime: boolean;
  imagePreviewWindow: boolean;
  readSync: boolean;
  fontSize: number;
  background: string;
}

export const BACKGROUNDS = ['default', 'paper', 'mint', 'sky', 'night'] as const;

export const DEFAULT_PREFERENCES: Preferences = {
  notifications: true,
  showMessageTime: true,
  imagePreviewWindow: false,
  readSync: true,
  fontSize: 1,
  background: 'default',
};

export const settingsKeys = {
  preferences: '/v1/member/memberSetting/get',
  me: '/v1/member/memberInfo/getMemberByToken',
  friendIp(friendMemberId: string): string {
    return `/v1/member/memberInfo/getFriendIp?${new URLSearchParams({ friendMemberId })}`;
  },
  refereeLink: '/v1/chat/friendInfo/getRefereeLink',
};

export interface Written {
  position: number;
}

export interface ProfileChange {
  name?: string;
  headUrl?: string;
  gender?: string;
}

export function modifyProfile(change: ProfileChange): Promise<Written> {
  return request<Written>('PUT', '/v1/member/memberInfo/modify', { body: change, quiet: true });
}

export function modifyPassword(oldPassword: string, newPassword: string, confirmPassword: string): Promise<Written> {
  return request<Written>('PUT', '/v1/member/memberInfo/modifyPassword', {
    body: { oldPassword, newPassword, confirmPassword },
    quiet: true,
  });
}

/** Erases the member's own account for ever ("delete my account"); its password confirms it. */
export function eraseAccount(password: string): Promise<Written> {
  return request<Written>('PUT', '/v1/member/memberInfo/erase', { body: { password }, quiet: true });
}

export function modifyUsername(username: string): Promise<Written> {
  return request<Written>('PUT', '/v1/member/memberInfo/modifyUsername', { body: { username }, quiet: true });
}

export function forgetPassword(body: {
  phone: string;
  smsCode: string;
  password: string;
  confirmPassword: string;
  tenantCode: string;
}): Promise<Written> {
  return request<Written>('PUT', '/v1/member/memberInfo/forgetPassword', { body, quiet: true });
}

export function setPreferences(change: Partial<Preferences>): Promise<Preferences & Written> {
  return request('PUT', '/v1/member/memberSetting/modify', { body: change, quiet: true });
}

export function buildFeedback(type: string, content: string, images: string[]): Promise<{ id: string } & Written> {
  return request('POST', '/v1/member/feedback/build', { body: { type, content, images }, quiet: true });
}

export function modifyFriend(friendMemberId: string, change: { remark?: string; blocked?: boolean }): Promise<Written> {
  return request('PUT', '/v1/chat/friendInfo/modify', { body: { friendMemberId, ...change }, quiet: true });
}

export function deleteFriend(friendMemberId: string): Promise<Written> {
  return request('POST', '/v1/chat/friendInfo/delete', { body: { friendMemberId }, quiet: true });
}

/** Reloads the signed-in member's info into the session (after a change or a 46 push). */
export async function refreshMe(position?: number): Promise<UserInfo | null> {
  const path = position ? `${settingsKeys.me}?after=${position}` : settingsKeys.me;
  updateUser(await request<UserInfo>('GET', path, { quiet: true }));
  return currentAuth()?.user ?? null;
}

/** What a 46 push does: the member's info and settings changed on another device or here. */
export function onUserInfoPush(): void {
  void refreshMe().catch(() => null);
  void mutate(settingsKeys.preferences);
}

/** What 48 (friend info changed) and 25 (friend deleted) do to the lists. */
export function onFriendsPush(): void {
  void mutate(keys.friends);
  void mutate(keys.sessions);
}
