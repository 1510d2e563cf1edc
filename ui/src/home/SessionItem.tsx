import type { Session } from '../api/types';
import { Avatar } from '../components/Avatar';
import { PinIcon } from '../components/icons';
import { listTime } from '../chat/format';
import { previewText } from '../chat/preview';
import { useT } from '../i18n';
import { CountBadge } from './CountBadge';

export function displayName(item: { remark?: string; name?: string; code?: string }): string {
  return item.remark?.trim() || item.name?.trim() || item.code?.trim() || '';
}

interface SessionItemProps {
  session: Session;
  active: boolean;
  onOpen: () => void;
}

export function SessionItem({ session, active, onOpen }: SessionItemProps) {
  const t = useT();
  const name = displayName(session);
  const preview = session.lastMessageType ? previewText(session.lastMessageType, session.lastMessageContent, t) : '';
  const pinned = session.topMessage === 'Y';
  return (
    <button
      type="button"
      className={`session-item${active ? ' session-item-active' : ''}${pinned ? ' session-item-pinned' : ''}`}
      onClick={onOpen}
      aria-current={active ? 'true' : undefined}
      data-testid="session-item"
      data-peer-id={session.id}
    >
      <Avatar name={session.name} remark={session.remark} headUrl={session.headUrl} seed={session.id} />
      <span className="session-text">
        <span className="session-line">
          <span className="session-name">
            {name || '\u00a0'}
            {pinned ? <PinIcon /> : null}
          </span>
          <time className="session-time">{listTime(session.lastMessageTime, t('time.yesterday'))}</time>
        </span>
        <span className="session-line">
          <span className="session-preview" data-testid="session-preview">
            {preview}
          </span>
          <CountBadge
            count={session.unreadCount}
            label={t('unread.label', { n: session.unreadCount })}
            testId="unread-badge"
          />
        </span>
      </span>
    </button>
  );
}
