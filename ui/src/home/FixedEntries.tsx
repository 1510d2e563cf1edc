import { useAtom } from 'jotai';
import { Avatar } from '../components/Avatar';
import { useSystemInfo } from '../api/hooks';
import { BellIcon, MegaphoneIcon, SparkIcon, StarIcon } from '../components/icons';
import { useT, type MessageKey } from '../i18n';
import { paneAtom, type FixedEntryId } from '../state/ui';
import { useNoticeCounts } from '../notices/state';
import { CountBadge } from './CountBadge';

export const fixedEntries: { id: FixedEntryId; icon: React.ReactNode; tone: string }[] = [
  { id: '001', icon: <StarIcon />, tone: '#f0a020' },
  { id: '002', icon: <MegaphoneIcon />, tone: '#22a06b' },
  { id: '003', icon: <BellIcon />, tone: '#4f7cff' },
  { id: '004', icon: <SparkIcon />, tone: '#8b5cf6' },
];

/** Favourites 001, group-send assistant 002, notifications 003 (spec, reading A); the chat assistant 004 while its tenant has it on. */
export function FixedEntries() {
  const t = useT();
  const [pane, setPane] = useAtom(paneAtom);
  const notices = useNoticeCounts();
  const assistantOn = useSystemInfo().data?.hasChatGpt === true;
  return (
    <ul className="session-list fixed-entries">
      {fixedEntries.filter((entry) => entry.id !== '004' || assistantOn).map((entry) => {
        const active = pane.kind === 'fixed' && pane.id === entry.id;
        return (
          <li key={entry.id}>
            <button
              type="button"
              className={`session-item session-item-compact${active ? ' session-item-active' : ''}`}
              aria-current={active ? 'true' : undefined}
              onClick={() => setPane({ kind: 'fixed', id: entry.id })}
              data-testid={`fixed-entry-${entry.id}`}
            >
              <Avatar icon={entry.icon} tone={entry.tone} size={32} />
              <span className="session-name">{t(`fixed.${entry.id}` as MessageKey)}</span>
              {entry.id === '003' ? (
                <CountBadge count={notices.total} label={t('notice.unreadCount', { n: notices.total })} testId="fixed-badge-003" />
              ) : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
