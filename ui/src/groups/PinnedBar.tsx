import { useState } from 'react';
import type { Message } from '../api/types';
import { CloseIcon, PinIcon } from '../components/icons';
import { useT } from '../i18n';

/** Above a group chat: its pinned messages, the latest first; a click jumps to one in the chat. */
export function PinnedBar({
  pinned,
  canUnpin,
  text,
  onJump,
  onUnpin,
}: {
  pinned: Message[];
  canUnpin: boolean;
  text: (message: Message) => string;
  onJump: (id: string) => void;
  onUnpin: (message: Message) => void;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const shown = open ? pinned : pinned.slice(0, 1);
  return (
    <div className="pinned-bar" data-testid="pinned-bar" data-count={pinned.length} aria-label={t('gchat.pinnedTitle')}>
      <PinIcon />
      <ul className="pinned-list">
        {shown.map((message) => (
          <li key={message.id} className="pinned-item" data-testid="pinned-item" data-message-id={message.id}>
            <button type="button" className="pinned-jump" onClick={() => onJump(message.id)} data-testid="pinned-jump">
              {text(message)}
            </button>
            {canUnpin ? (
              <button
                type="button"
                className="icon-button"
                aria-label={t('menu.unpin')}
                title={t('menu.unpin')}
                onClick={() => onUnpin(message)}
                data-testid="pinned-unpin"
              >
                <CloseIcon />
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {pinned.length > 1 ? (
        <button type="button" className="button button-secondary pinned-more" onClick={() => setOpen(!open)} data-testid="pinned-toggle">
          {open ? t('gchat.pinnedHide') : t('gchat.pinnedCount', { n: pinned.length })}
        </button>
      ) : null}
    </div>
  );
}
