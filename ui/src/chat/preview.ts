import type { MessageKey } from '../i18n';

const placeholders: Record<string, MessageKey> = {
  Picture: 'preview.Picture',
  File: 'preview.File',
  VideoMsg: 'preview.VideoMsg',
  VoiceMsg: 'preview.VoiceMsg',
  Forward: 'preview.Forward',
  VoiceCall: 'preview.VoiceCall',
  VideoCall: 'preview.VideoCall',
  ShareContact: 'preview.ShareContact',
};

/** What the server puts as the last content of a conversation whose last message was recalled. */
export const RECALLED_PREVIEW = '[recalled]';

const TEXT_TYPES = ['Text', 'Event', 'AtText', 'Reply', ''];

/** Whether this client knows how to show a message of msgType (a newer client may send others). */
export function isKnownType(msgType: string): boolean {
  return TEXT_TYPES.includes(msgType) || msgType in placeholders;
}

/** The last-content preview of a conversation (spec messaging.md section 4). */
export function previewText(msgType: string, content: string, translate: (key: MessageKey) => string): string {
  if (content === RECALLED_PREVIEW && msgType !== 'Event') return translate('preview.recalled');
  if (TEXT_TYPES.includes(msgType)) return content;
  const key = placeholders[msgType];
  return translate(key ?? 'preview.unsupported');
}
