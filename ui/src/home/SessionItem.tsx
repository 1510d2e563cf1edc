import { useAtomValue } from 'jotai';
import { useCallback, useState } from 'react';
import type { Session } from '../api/types';
import { Avatar } from '../components/Avatar';
import { BellOffIcon, MoreIcon, PinIcon } from '../components/icons';
import { badgeOf, isMuted, isPinned, sessionActions, type SessionAction } from '../chat/conversations';
import { listTime } from '../chat/format';
import { sessionPreview } from '../chat/preview';
import { useFriendGroups } from '../api/hooks';
import { authAtom } from '../auth/authState';
import { useT } from '../i18n';
import { CountBadge } from './CountBadge';
import { SessionMenu, type MenuPlace } from './SessionMenu';
import { levelOf, shownName } from './systemAccount';

export function displayName(item: { remark?: string; name?: string; code?: string }): string {
  return item.remark?.trim() || item.name?.trim() || item.code?.trim() || '';
}

interface SessionItemProps {
  session: Session;
  active: boolean;
  /** unsent text of a conversation that is not open, shown in place of the last message */
  draft?: string;
  onOpen: () => void;
  onAction: (action: SessionAction) => void;
}

export function SessionItem({ session, active, draft, onOpen, onAction }: SessionItemProps) {
  const t = useT();
  const [menu, setMenu] = useState<MenuPlace | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const friends = useFriendGroups();
  const level = session.chatType === 'Friend' ? levelOf(friends.data, session.id) : '';
  const name = shownName({ ...session, memberLevelCode: level }, t);
  const me = useAtomValue(authAtom)?.user.id ?? '';
  const preview = sessionPreview(session, t, me);
  const pinned = isPinned(session);
  const muted = isMuted(session);
  const badge = badgeOf(session);
  return (
    <div
      className="session-row"
      onContextMenu={(event) => {
        event.preventDefault();
        setMenu({ x: event.clientX, y: event.clientY });
      }}
    >
      <button
        type="button"
        className={`session-item${active ? ' session-item-active' : ''}${pinned ? ' session-item-pinned' : ''}`}
        onClick={onOpen}
        aria-current={active ? 'true' : undefined}
        data-testid="session-item"
        data-peer-id={session.id}
        data-pinned={pinned ? 'Y' : 'N'}
        data-dnd={muted ? 'Y' : 'N'}
      >
        <Avatar name={session.name} remark={session.remark} headUrl={session.headUrl} seed={session.id} levelCode={level} />
        <span className="session-text">
          <span className="session-line">
            <span className="session-name">
              {name || '\u00a0'}
              {pinned ? (
                <span className="session-mark" title={t('session.pinned')} data-testid="pin-marker">
                  <PinIcon />
                </span>
              ) : null}
              {muted ? (
                <span className="session-mark" title={t('session.muted')} data-testid="dnd-marker">
                  <BellOffIcon />
                </span>
              ) : null}
            </span>
            <time className="session-time">{listTime(session.lastMessageTime, t('time.yesterday'))}</time>
          </span>
          <span className="session-line">
            <span className="session-preview" data-testid="session-preview">
              {draft ? (
                <>
                  <span className="session-draft">{t('session.draft')}</span> {draft}
                </>
              ) : (
                <>
                  {session.atCount ? (
                    <span className="session-at" data-testid="at-marker">
                      {t('gchat.mentionedMe')}{' '}
                    </span>
                  ) : null}
                  {preview}
                </>
              )}
            </span>
            <CountBadge
              count={badge.count}
              muted={badge.muted}
              label={t('unread.label', { n: badge.count })}
              testId="unread-badge"
            />
          </span>
        </span>
      </button>
      <button
        type="button"
        className="session-more"
        aria-label={t('session.more')}
        aria-haspopup="menu"
        data-testid="session-more"
        onClick={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          setMenu({ x: box.right - 200, y: box.bottom });
        }}
      >
        <MoreIcon />
      </button>
      {menu ? (
        <SessionMenu actions={sessionActions(session)} place={menu} onPick={onAction} onClose={closeMenu} />
      ) : null}
    </div>
  );
}
