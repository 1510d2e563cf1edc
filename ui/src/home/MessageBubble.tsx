import type { Message } from '../api/types';
import { CallRecord } from '../calls/CallRecord';
import { isCallRecord } from '../calls/record';
import { clockTime } from '../chat/format';
import { previewText } from '../chat/preview';
import { resend } from '../chat/send';
import { MEDIA_TYPES, parseMediaContent } from '../chat/upload';
import { useT, type MessageKey } from '../i18n';
import { MediaView } from './MediaView';

interface MessageBubbleProps {
  message: Message;
  own: boolean;
  /** false inside a run of messages: the last one of the run carries the time and status */
  showMeta: boolean;
}

export function MessageBubble({ message, own, showMeta }: MessageBubbleProps) {
  const t = useT();
  if (isCallRecord(message.msgType)) return <CallRecord message={message} own={own} />;
  const failed = own && message.msgStatus === 'failedSent';
  const text = previewText(message.msgType, message.content, t);
  const time = message.serverReceiveTime || message.createTime;
  const media = MEDIA_TYPES.includes(message.msgType) ? parseMediaContent(message.content) : null;
  return (
    <div
      className={`message${own ? ' message-own' : ''}${failed ? ' message-failed' : ''}${showMeta ? '' : ' message-in-run'}`}
      data-testid="message"
      data-status={message.msgStatus}
      data-uuid={message.uuid}
    >
      {failed ? (
        <button
          type="button"
          className="bubble"
          onClick={() => resend(message)}
          aria-label={`${text} — ${t('status.failedSent')}`}
        >
          {text}
        </button>
      ) : (
        <div className={media ? 'bubble bubble-media' : 'bubble'}>
          {media ? <MediaView msgType={message.msgType} media={media} /> : text}
        </div>
      )}
      {showMeta ? (
        <div className="message-meta">
          <time>{clockTime(time)}</time>
          {own ? (
            <span className={`message-status status-${message.msgStatus}`} data-testid="message-status">
              {t(`status.${message.msgStatus}` as MessageKey)}
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
