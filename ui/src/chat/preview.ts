import type { MessageKey, Params } from '../i18n';
import { parseMediaContent } from './upload';

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

type Translate = (key: MessageKey, params?: Params) => string;

/** An uploaded file's preview as its type reads: Photo, Video, Voice message or File: its name. */
function mediaPreview(msgType: string, content: string, translate: Translate): string | null {
  const media = parseMediaContent(content);
  if (!media) return null;
  const kind = msgType === 'File' ? '' : msgType || media.contentType.split('/')[0];
  if (kind === 'Picture' || kind === 'image') return translate('preview.Picture');
  if (kind === 'VideoMsg' || kind === 'video') return translate('preview.VideoMsg');
  if (kind === 'VoiceMsg' || kind === 'audio') return translate('preview.VoiceMsg');
  return media.fileName ? translate('preview.FileNamed', { name: media.fileName }) : translate('preview.File');
}

/** The last-content preview of a conversation (spec messaging.md section 4), as people say it. */
export function previewText(msgType: string, content: string, translate: Translate): string {
  if (content === RECALLED_PREVIEW && msgType !== 'Event') return translate('preview.recalled');
  if (TEXT_TYPES.includes(msgType)) return content;
  if (msgType === 'Forward') {
    const inner = mediaPreview('', content, translate) ?? content;
    return translate('preview.Forward', { text: inner });
  }
  if (msgType === 'File') return mediaPreview(msgType, content, translate) ?? translate('preview.File');
  const key = placeholders[msgType];
  return translate(key ?? 'preview.unsupported');
}
