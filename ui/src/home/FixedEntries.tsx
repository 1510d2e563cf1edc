import { useAtom } from 'jotai';
import { useRef, useState } from 'react';
import { Avatar } from '../components/Avatar';
import { useSystemInfo } from '../api/hooks';
import { BellIcon, MegaphoneIcon, MenuIcon, SparkIcon, StarIcon } from '../components/icons';
import { PopupMenu } from '../components/PopupMenu';
import { useT, type MessageKey } from '../i18n';
import type { RouteName } from '../routing/guard';
import { paneAtom, type FixedEntryId } from '../state/ui';
import { useNoticeCounts } from '../notices/state';
import { CountBadge } from './CountBadge';

/** route: the address that shows the entry, so that back, forward, a reload and a link reach it */
export const fixedEntries: { id: FixedEntryId; icon: React.ReactNode; tone: string; route: RouteName }[] = [
  { id: '001', icon: <StarIcon />, tone: '#f0a020', route: 'favorite' },
  { id: '002', icon: <MegaphoneIcon />, tone: '#22a06b', route: 'massSend' },
  { id: '003', icon: <BellIcon />, tone: '#4f7cff', route: 'notices' },
  { id: '004', icon: <SparkIcon />, tone: '#8b5cf6', route: 'chatGpt' },
];

/**
 * Favourites 001, group-send assistant 002, notifications 003 (spec, reading A), behind the menu
 * button of the list's header, which carries the unread notifications' count, out of the way of
 * the conversations; the chat assistant 004 while its tenant has it on.
 */
export function FixedEntriesMenu() {
  const t = useT();
  const [pane, setPane] = useAtom(paneAtom);
  const notices = useNoticeCounts();
  const [at, setAt] = useState<{ x: number; y: number } | null>(null);
  const assistantOn = useSystemInfo().data?.hasChatGpt === true;
  const button = useRef<HTMLButtonElement>(null);
  const count = (id: FixedEntryId) => (id === '003' ? notices.total : 0);
  return (
    <>
      <button
        ref={button}
        type="button"
        className="icon-button menu-button"
        aria-label={t('home.menu')}
        title={t('home.menu')}
        aria-haspopup="menu"
        aria-expanded={at !== null}
        onClick={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          setAt((open) => (open ? null : { x: box.left, y: box.bottom + 4 }));
        }}
        data-testid="open-menu"
      >
        <MenuIcon />
        <CountBadge count={notices.total} label={t('notice.unreadCount', { n: notices.total })} testId="menu-badge" />
      </button>
      {at ? (
        <PopupMenu
          x={at.x}
          y={at.y}
          label={t('home.menu')}
          onClose={() => setAt(null)}
          toggle={button.current}
          testId="fixed-menu"
          items={fixedEntries.filter((entry) => entry.id !== '004' || assistantOn).map((entry) => ({
            key: `fixed-${entry.id}`,
            label: t(`fixed.${entry.id}` as MessageKey),
            icon: <Avatar icon={entry.icon} tone={entry.tone} size={28} />,
            trailing: (
              <CountBadge
                count={count(entry.id)}
                label={t('notice.unreadCount', { n: count(entry.id) })}
                testId={`fixed-badge-${entry.id}`}
              />
            ),
            current: pane.kind === 'fixed' && pane.id === entry.id,
            onSelect: () => setPane({ kind: 'fixed', id: entry.id }),
          }))}
        />
      ) : null}
    </>
  );
}
