import type { Session } from '../api/types';
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

type SessionPreviewFields = Pick<Session, 'lastMessageType' | 'lastMessageContent'> & Partial<Session>;

/**
 * A conversation's preview as the list shows it, live and after a reload alike: the server keeps a
 * media message's placeholder as its content and names a file, and a forward's sender and type, in
 * fields of their own; a live message carries its whole content instead.
 */
export function sessionPreview(session: SessionPreviewFields, translate: Translate, me = ''): string {
  const { lastMessageType: msgType, lastMessageContent: raw } = session;
  if (!msgType) return '';
  if (raw === RECALLED_PREVIEW && msgType !== 'Event') return recalledPreview(session, translate, me);
  // A group's preview names its sender, which the server puts before the content: "bob: Photo".
  const sender = session.chatType === 'Group' && msgType !== 'Event' ? (session.lastMessageFromName?.trim() ?? '') : '';
  const prefix = sender ? `${sender}: ` : '';
  const content = prefix && raw.startsWith(prefix) ? raw.slice(prefix.length) : raw;
  return prefix + messagePreview({ ...session, lastMessageContent: content }, translate);
}

function messagePreview(session: SessionPreviewFields, translate: Translate): string {
  const { lastMessageType: msgType, lastMessageContent: content } = session;
  if (msgType === 'File' && session.lastMessageFileName) {
    return translate('preview.FileNamed', { name: session.lastMessageFileName });
  }
  if (msgType !== 'Forward') return previewText(msgType, content, translate);
  const text = forwardedText(session, translate);
  const name = session.lastMessageForwardFromName?.trim();
  return name ? translate('preview.ForwardFrom', { name, text }) : translate('preview.Forward', { text });
}

/** A recall as the chat says it, "You recalled a message" or "bob recalled a message", when the sender is known. */
function recalledPreview(session: SessionPreviewFields, translate: Translate, me: string): string {
  const from = session.lastMessageFrom;
  if (!from) return translate('preview.recalled');
  if (from === me) return translate('message.recalledByMe');
  // A friend is named as the list names them, by the remark first, live or not.
  const peer = session.chatType === 'Friend' && from === session.id ? session.remark?.trim() || session.name?.trim() : '';
  const name = peer || session.lastMessageFromName?.trim();
  return name ? translate('message.recalledBy', { name }) : translate('preview.recalled');
}

/** What a forward carries: a live one its whole content, a stored one the placeholder of its type. */
function forwardedText(session: SessionPreviewFields, translate: Translate): string {
  const { lastMessageForwardType: kind, lastMessageFileName: fileName, lastMessageContent: content } = session;
  const media = mediaPreview('', content, translate);
  if (media) return media;
  if (kind === 'File' && fileName) return translate('preview.FileNamed', { name: fileName });
  if (kind && kind in placeholders && kind !== 'Forward') return previewText(kind, content, translate);
  return content;
}
