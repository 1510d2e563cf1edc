// The image/video history of a conversation (spec messaging.md section 2): its pictures and
// videos, forwarded ones included, newest first; recalled messages and unreadable content are left out.
import type { Message } from '../api/types';
import { parseMediaContent, type MediaContent } from './upload';

export interface MediaItem {
  id: string;
  msgType: 'Picture' | 'VideoMsg';
  media: MediaContent;
  time: number;
}

export function mediaHistory(timeline: readonly Message[]): MediaItem[] {
  const items: MediaItem[] = [];
  for (const message of timeline) {
    const type = message.msgType === 'Forward' ? message.forwardType : message.msgType;
    if ((type !== 'Picture' && type !== 'VideoMsg') || message.recalled || !message.id) continue;
    const media = parseMediaContent(message.content);
    if (media) items.push({ id: message.id, msgType: type, media, time: message.serverReceiveTime || message.createTime });
  }
  return items.reverse();
}
