import { useLayoutEffect, useRef } from 'react';
import type { Message } from '../api/types';
import { SEPARATOR_GAP_MS, clockTime, separatorLabel } from '../chat/format';
import { useT } from '../i18n';
import { MessageBubble } from './MessageBubble';

interface MessageListProps {
  messages: Message[];
  me: string;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  failed: string | null;
  onLoadMore: () => void;
  onRetry: () => void;
}

const LOAD_MORE_THRESHOLD_PX = 48;
const NEAR_BOTTOM_PX = 120;

function timeOf(message: Message): number {
  return message.serverReceiveTime || message.createTime;
}

function keyOf(message: Message): string {
  return message.uuid || message.id;
}

/** Time and status show once under a run of messages from one sender in one minute with one status. */
function endsRun(message: Message, next: Message | undefined): boolean {
  return (
    !next ||
    next.from !== message.from ||
    next.msgStatus !== message.msgStatus ||
    clockTime(timeOf(next)) !== clockTime(timeOf(message))
  );
}

/**
 * The scrolling message column. Scrolling near the top loads the previous page; the view keeps
 * its place while older messages are put above. A new message scrolls to the bottom when the
 * reader was already there, or when it is one's own.
 */
export function MessageList({
  messages,
  me,
  loading,
  loadingMore,
  hasMore,
  failed,
  onLoadMore,
  onRetry,
}: MessageListProps) {
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const nearBottom = useRef(true);
  const firstKey = messages.length ? keyOf(messages[0]) : '';
  const last = messages.length ? messages[messages.length - 1] : undefined;
  const lastKey = last ? keyOf(last) : '';
  const previous = useRef({ firstKey: '', lastKey: '' });

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const before = previous.current;
    previous.current = { firstKey, lastKey };
    if (anchor.current && firstKey !== before.firstKey) {
      element.scrollTop = element.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
      return;
    }
    const appended = lastKey !== before.lastKey;
    if (appended && (nearBottom.current || last?.from === me || !before.lastKey)) {
      element.scrollTop = element.scrollHeight;
    }
  }, [firstKey, lastKey, last?.from, me]);

  function onScroll() {
    const element = scroller.current;
    if (!element) return;
    nearBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX;
    if (element.scrollTop < LOAD_MORE_THRESHOLD_PX && hasMore && !loadingMore) {
      anchor.current = { height: element.scrollHeight, top: element.scrollTop };
      onLoadMore();
    }
  }

  const rows: React.ReactNode[] = [];
  let previousTime = 0;
  messages.forEach((message, index) => {
    const time = timeOf(message);
    const next = messages[index + 1];
    if (time - previousTime > SEPARATOR_GAP_MS) {
      rows.push(
        <li key={`sep-${keyOf(message)}`} className="time-separator" role="separator">
          {separatorLabel(time, t('time.yesterday'))}
        </li>,
      );
    }
    previousTime = time;
    rows.push(
      <li key={keyOf(message)}>
        <MessageBubble message={message} own={message.from === me} showMeta={endsRun(message, next)} />
      </li>,
    );
  });

  return (
    <div className="message-scroller" ref={scroller} onScroll={onScroll} data-testid="message-scroller">
      {loadingMore && !loading ? <p className="list-note">{t('chat.loadingOlder')}</p> : null}
      {!hasMore && !loading && messages.length > 0 ? <p className="list-note">{t('chat.noMore')}</p> : null}
      {loading ? <p className="list-note">{t('common.loading')}</p> : null}
      {failed ? (
        <div className="list-note">
          <p>{failed}</p>
          <button type="button" className="button button-secondary" onClick={onRetry}>
            {t('common.retry')}
          </button>
        </div>
      ) : null}
      {!loading && !failed && messages.length === 0 ? <p className="empty-chat">{t('chat.empty')}</p> : null}
      <ol className="message-list" aria-label={t('chat.messages')} aria-live="polite">
        {rows}
      </ol>
    </div>
  );
}
