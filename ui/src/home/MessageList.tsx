import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { HISTORY_PAGE_SIZE } from '../api/keys';
import type { Message } from '../api/types';
import { isEventLike } from '../chat/changes';
import { SEPARATOR_GAP_MS, clockTime, separatorLabel } from '../chat/format';
import {
  HISTORY_DEBOUNCE_MS,
  SCROLL_BOTTOM_THROTTLE_MS,
  debounce,
  throttle,
} from '../chat/timing';
import { MAX_RENDERED, anchorAround, shiftDown, shiftUp, windowRange, type WindowAnchor } from '../chat/window';
import { useT } from '../i18n';
import { MessageBubble, SystemLine, type BubbleEnv } from './MessageBubble';

interface MessageListProps {
  messages: Message[];
  env: BubbleEnv;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  failed: string | null;
  onLoadMore: () => void;
  onRetry: () => void;
  /** a message to scroll to and flash */
  jumpTo: { id: string; nonce: number } | null;
  /** the row the "unread messages" separator goes above; the chat opens there */
  unreadFrom?: string;
  /** search results: each row offers to show the message in the whole chat */
  onShowInChat?: (message: Message) => void;
  emptyNote?: string;
}

const EDGE_PX = 48;
const NEAR_BOTTOM_PX = 120;
const FLASH_MS = 1600;

function timeOf(message: Message): number {
  return message.serverReceiveTime || message.createTime;
}

export function keyOf(message: Message): string {
  return message.uuid || message.id;
}

/** Time and status show once under a run of messages from one sender in one minute with one status. */
function endsRun(message: Message, next: Message | undefined): boolean {
  return (
    !next ||
    isEventLike(next) ||
    next.from !== message.from ||
    next.msgStatus !== message.msgStatus ||
    clockTime(timeOf(next)) !== clockTime(timeOf(message))
  );
}

/**
 * The scrolling message column. It renders a window of at most 1000 messages, moved by 200 when
 * the reader scrolls past one of its ends; at the top of what is loaded it asks for the previous
 * page. The view keeps its place while rows come and go above. A new message scrolls to the
 * bottom when the reader was already there, or when it is one's own.
 */
export function MessageList({
  messages,
  env,
  loading,
  loadingMore,
  hasMore,
  failed,
  onLoadMore,
  onRetry,
  jumpTo,
  unreadFrom,
  onShowInChat,
  emptyNote,
}: MessageListProps) {
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const placeKeeper = useRef<{ key: string; delta: number } | null>(null);
  const pendingJump = useRef<string | null>(null);
  const toBottomOnce = useRef(false);
  const [flashKey, setFlashKey] = useState<string | null>(null);
  const [anchor, setAnchor] = useState<WindowAnchor>({ kind: 'bottom' });

  const keys = useMemo(() => messages.map(keyOf), [messages]);
  const range = windowRange(keys, anchor);
  const shown = messages.slice(range.start, range.end);
  const firstKey = shown.length ? keyOf(shown[0]) : '';
  const last = messages.length ? messages[messages.length - 1] : undefined;
  const lastKey = last ? keyOf(last) : '';
  const previous = useRef({ firstKey: '', lastKey: '' });

  const scrollToBottom = useMemo(
    () =>
      throttle(() => {
        const element = scroller.current;
        if (element) element.scrollTop = element.scrollHeight;
      }, SCROLL_BOTTOM_THROTTLE_MS),
    [],
  );
  const loadMoreLater = useRef(onLoadMore);
  loadMoreLater.current = onLoadMore;
  const requestOlder = useMemo(() => debounce(() => loadMoreLater.current(), HISTORY_DEBOUNCE_MS), []);
  useEffect(
    () => () => {
      scrollToBottom.cancel();
      requestOlder.cancel();
    },
    [scrollToBottom, requestOlder],
  );

  // A requested jump is done on the first render that holds its row.
  useLayoutEffect(() => {
    const key = pendingJump.current;
    const target = key && scroller.current?.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(key)}"]`);
    if (!key || !target) return;
    pendingJump.current = null;
    nearBottom.current = false;
    target.scrollIntoView({ block: 'center' });
    setFlashKey(key);
  });

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const before = previous.current;
    previous.current = { firstKey, lastKey };
    if (pendingJump.current) return;
    const appended = lastKey !== before.lastKey;
    // Following the newest messages, the window drops rows above as rows come below: the view
    // goes to the bottom rather than stay on a row on its way out.
    const following = appended && anchor.kind === 'bottom' && nearBottom.current;
    const kept = placeKeeper.current;
    if (kept && before.firstKey && firstKey !== before.firstKey && !following) {
      const top = keptTop(element);
      if (top !== null) element.scrollTop += top - kept.delta;
    }
    if (toBottomOnce.current && anchor.kind === 'bottom') {
      toBottomOnce.current = false;
      element.scrollTop = element.scrollHeight;
      return;
    }
    if (!appended) return;
    if (last?.from === env.me && before.lastKey && anchor.kind !== 'bottom') {
      // One's own message while reading far above: back to the newest messages, then down.
      toBottomOnce.current = true;
      setAnchor({ kind: 'bottom' });
      return;
    }
    if (anchor.kind === 'bottom' && (nearBottom.current || last?.from === env.me || !before.lastKey)) {
      if (!before.lastKey) element.scrollTop = element.scrollHeight;
      else scrollToBottom();
    }
  }, [firstKey, lastKey, last?.from, env.me, anchor.kind, scrollToBottom]);

  // A chat opening with more unread than fit starts at the separator rather than the bottom.
  useLayoutEffect(() => {
    const element = scroller.current;
    const separator = unreadFrom ? element?.querySelector<HTMLElement>('.unread-separator') : null;
    if (!element || !separator) return;
    if (separator.getBoundingClientRect().top < element.getBoundingClientRect().top) {
      separator.scrollIntoView({ block: 'start' });
      nearBottom.current = false;
    }
  }, [unreadFrom]);

  useEffect(() => {
    if (!jumpTo) return;
    const index = messages.findIndex((message) => message.id === jumpTo.id);
    if (index < 0) return;
    pendingJump.current = keys[index];
    setAnchor(anchorAround(keys, index));
  }, [jumpTo?.nonce]);

  useEffect(() => {
    if (!flashKey) return undefined;
    const timer = setTimeout(() => setFlashKey(null), FLASH_MS);
    return () => clearTimeout(timer);
  }, [flashKey]);

  /** Remembers the row at the top of the view, to put it back there when rows change above it. */
  function keepPlace(element: HTMLDivElement) {
    const box = element.getBoundingClientRect();
    for (const dy of [4, 16, 40, 80]) {
      const hit = document
        .elementFromPoint(box.left + box.width / 2, box.top + dy)
        ?.closest<HTMLElement>('[data-row-key]');
      if (hit && element.contains(hit)) {
        placeKeeper.current = { key: hit.dataset.rowKey!, delta: hit.getBoundingClientRect().top - box.top };
        return;
      }
    }
  }

  /** Where the row remembered by keepPlace is now, from the top of the view; null when it is gone. */
  function keptTop(element: HTMLDivElement): number | null {
    const kept = placeKeeper.current;
    const row = kept && element.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(kept.key)}"]`);
    return row ? row.getBoundingClientRect().top - element.getBoundingClientRect().top : null;
  }

  function onScroll() {
    const element = scroller.current;
    if (!element) return;
    // The row last seen at the top of the view moved down: the reader scrolled up.
    const top = keptTop(element);
    const readerUp = top !== null && top > placeKeeper.current!.delta + 1;
    keepPlace(element);
    const fromBottom = element.scrollHeight - element.scrollTop - element.clientHeight;
    // Rows arriving faster than the view follows them leave it far from the bottom for a moment,
    // and rows leaving above move it up: only the reader scrolling up stops the following.
    if (fromBottom < NEAR_BOTTOM_PX) nearBottom.current = range.end >= keys.length;
    else if (readerUp) nearBottom.current = false;
    if (element.scrollTop < EDGE_PX) {
      const up = shiftUp(keys, range);
      if (up) setAnchor(up);
      else if (hasMore && !loadingMore) {
        if (keys.length + HISTORY_PAGE_SIZE > MAX_RENDERED) setAnchor({ kind: 'start', key: null });
        requestOlder();
      }
    } else if (fromBottom < EDGE_PX) {
      const down = shiftDown(keys, range);
      if (down) setAnchor(down);
    }
  }

  const rows: React.ReactNode[] = [];
  let previousTime = range.start > 0 ? timeOf(messages[range.start - 1]) : 0;
  shown.forEach((message, index) => {
    const time = timeOf(message);
    const key = keyOf(message);
    const next = shown[index + 1];
    if (time - previousTime > SEPARATOR_GAP_MS) {
      rows.push(
        <li key={`sep-${key}`} className="time-separator" role="separator">
          {separatorLabel(time, t('time.yesterday'))}
        </li>,
      );
    }
    previousTime = time;
    if (key === unreadFrom) {
      rows.push(
        <li key="unread-separator" className="unread-separator" role="separator" data-testid="unread-separator">
          <span>{t('chat.unreadSeparator')}</span>
        </li>,
      );
    }
    rows.push(
      <li key={key} data-row-key={key} className={flashKey === key ? 'row-flash' : undefined}>
        {isEventLike(message) ? (
          <SystemLine message={message} env={env} />
        ) : (
          <MessageBubble
            message={message}
            env={env}
            showMeta={endsRun(message, next)}
            startsRun={index === 0 || shown[index - 1].from !== message.from || isEventLike(shown[index - 1])}
          />
        )}
        {onShowInChat && message.id ? (
          <button
            type="button"
            className={`link-button show-in-chat${message.from === env.me ? ' show-in-chat-own' : ''}`}
            onClick={() => onShowInChat(message)}
            data-testid="show-in-chat"
          >
            {t('search.show')}
          </button>
        ) : null}
      </li>,
    );
  });

  const atStart = range.start === 0;
  return (
    <div className="message-scroller" ref={scroller} onScroll={onScroll} data-testid="message-scroller">
      {atStart && loadingMore && !loading ? <p className="list-note">{t('chat.loadingOlder')}</p> : null}
      {atStart && !hasMore && !loading && messages.length > 0 && !onShowInChat ? (
        <p className="list-note">{t('chat.noMore')}</p>
      ) : null}
      {loading ? <p className="list-note">{t('common.loading')}</p> : null}
      {failed ? (
        <div className="list-note">
          <p>{failed}</p>
          <button type="button" className="button button-secondary" onClick={onRetry}>
            {t('common.retry')}
          </button>
        </div>
      ) : null}
      {!loading && !failed && messages.length === 0 ? (
        <p className="empty-chat">{emptyNote ?? t('chat.empty')}</p>
      ) : null}
      <ol
        className="message-list"
        aria-label={t('chat.messages')}
        aria-live="polite"
        data-testid="message-list"
        data-rendered={shown.length}
        data-total={messages.length}
      >
        {rows}
      </ol>
    </div>
  );
}
