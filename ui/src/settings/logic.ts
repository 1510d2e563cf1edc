// Rules of the settings screens (spec accounts.md section 5), as pure functions.
import type { MessageKey } from '../i18n';

export const MAX_AVATAR_BYTES = 5_000_000;
export const MAX_FEEDBACK_IMAGES = 5;
export const MAX_FEEDBACK_IMAGE_BYTES = 5_000_000;
export const AVATAR_QUALITY = 0.8;
export const AVATAR_SIZE_PX = 256;

const PASSWORD = /^[A-Za-z0-9]{8,16}$/;
const ACCOUNT_ID = /^[A-Za-z0-9]{8,16}$/;

export function checkName(name: string): MessageKey | null {
  if (!name.trim()) return 'settings.nameEmpty';
  if ([...name.trim()].length > 32) return 'settings.nameTooLong';
  return null;
}

export interface PasswordChange {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function checkPasswordChange(change: PasswordChange): MessageKey | null {
  if (!change.oldPassword) return 'settings.oldPasswordEmpty';
  return checkNewPassword(change.newPassword, change.confirmPassword);
}

/** 8-16 letters and digits, and the confirmation equal to it (change and reset alike). */
export function checkNewPassword(password: string, confirm: string): MessageKey | null {
  if (!password) return 'settings.newPasswordEmpty';
  if (!PASSWORD.test(password)) return 'settings.passwordRule';
  if (!confirm) return 'settings.confirmEmpty';
  if (confirm !== password) return 'settings.passwordsDiffer';
  return null;
}

export function checkAccountId(account: string): MessageKey | null {
  if (!account) return 'settings.accountEmpty';
  if (!ACCOUNT_ID.test(account)) return 'settings.accountRule';
  return null;
}

const AVATAR_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/gif'];

/** Avatar: under 5,000,000 bytes, jpg, jpeg, png or gif, and no animated gif (so no gif at all). */
export function checkAvatarFile(file: { size: number; type: string }): MessageKey | null {
  if (!AVATAR_TYPES.includes(file.type)) return 'settings.avatarType';
  if (file.type === 'image/gif') return 'settings.avatarGif';
  if (file.size >= MAX_AVATAR_BYTES) return 'settings.avatarTooLarge';
  return null;
}

const FEEDBACK_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/gif'];

export function checkFeedbackImages(files: { size: number; type: string }[], already: number): MessageKey | null {
  if (files.length + already > MAX_FEEDBACK_IMAGES) return 'feedback.tooManyImages';
  for (const file of files) {
    if (!FEEDBACK_TYPES.includes(file.type)) return 'feedback.imageType';
    if (file.size >= MAX_FEEDBACK_IMAGE_BYTES) return 'feedback.imageTooLarge';
  }
  return null;
}

export function checkFeedback(type: string, content: string): MessageKey | null {
  if (!type) return 'feedback.typeEmpty';
  if (!content.trim()) return 'feedback.contentEmpty';
  if ([...content.trim()].length > 1000) return 'feedback.tooLong';
  return null;
}

export type FontSize = 0 | 1 | 2;

/** The message text size in px for the font-size levels 0, 1, 2: small, normal (15 px), large. */
export function chatFontPx(size: number): number {
  return size === 0 ? 13 : size === 2 ? 17 : 15;
}

/** Seconds left of a resend countdown started at `startedAt` (ms) lasting `seconds`. */
export function countdownLeft(startedAt: number, now: number, seconds = 60): number {
  return Math.max(0, Math.ceil((startedAt + seconds * 1000 - now) / 1000));
}

/** The largest square crop centred in a w x h picture, scaled to at most `max` px. */
export function squareCrop(width: number, height: number, max = AVATAR_SIZE_PX) {
  const side = Math.min(width, height);
  return { sx: Math.floor((width - side) / 2), sy: Math.floor((height - side) / 2), side, out: Math.min(side, max) };
}
