import type { Message } from '../api/types';
import { clockTime } from '../chat/format';
import { useT } from '../i18n';
import { PhoneIcon, VideoIcon } from './CallIcons';
import { parseCallRecord, recordLine } from './record';

/** A call record in the chat: a line with the media's icon, the outcome and the duration. */
export function CallRecord({ message, own }: { message: Message; own: boolean }) {
  const t = useT();
  const record = parseCallRecord(message.msgType, message.content);
  if (!record) return null;
  const media = record.media === 'video' ? t('call.video') : t('call.voice');
  return (
    <div
      className={`message call-record${own ? ' message-own' : ''} call-record-${record.outcome}`}
      data-testid="call-record"
      data-outcome={record.outcome}
      data-media={record.media}
    >
      <div className="bubble call-record-line" title={media}>
        {record.media === 'video' ? <VideoIcon size={16} /> : <PhoneIcon size={16} />}
        <span className="call-hidden">{media}: </span>
        <span>{recordLine(record, t)}</span>
      </div>
      <div className="message-meta">
        <time>{clockTime(message.serverReceiveTime || message.createTime)}</time>
      </div>
    </div>
  );
}
