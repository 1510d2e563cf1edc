import { useAtom, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useFriendApplies, useSessions } from '../api/hooks';
import type { UserInfo } from '../api/types';
import { logout } from '../auth/logout';
import { pendingReceived } from '../chat/applies';
import { totalUnread } from '../chat/conversations';
import { Avatar } from '../components/Avatar';
import { ChatIcon, ContactsIcon, LogoutIcon } from '../components/icons';
import { useT } from '../i18n';
import { goTo } from '../routing/useRoute';
import { GlobalSearch } from '../search/GlobalSearch';
import { leftTabAtom, paneAtom, type LeftTab } from '../state/ui';
import { Contacts } from './Contacts';
import { CountBadge } from './CountBadge';
import { FixedEntriesMenu } from './FixedEntries';
import { SessionList } from './SessionList';

export function Sidebar({ me }: { me: UserInfo }) {
  const t = useT();
  const [tab, setTab] = useAtom(leftTabAtom);
  const setPane = useSetAtom(paneAtom);
  const sessions = useSessions();
  const applies = useFriendApplies();
  const unread = totalUnread(sessions.data ?? []);
  const requests = pendingReceived(applies.data?.records);
  const [searching, setSearching] = useState(false);

  const tabs: { id: LeftTab; label: string; icon: React.ReactNode; count: number; countLabel: string }[] = [
    {
      id: 'chats',
      label: t('home.chats'),
      icon: <ChatIcon />,
      count: unread,
      countLabel: t('unread.label', { n: unread }),
    },
    {
      id: 'contacts',
      label: t('home.contacts'),
      icon: <ContactsIcon />,
      count: requests,
      countLabel: t('requests.pending', { n: requests }),
    },
  ];

  return (
    <aside className="sidebar" aria-label={t('home.chats')}>
      <header className="sidebar-header">
        <FixedEntriesMenu />
        <Avatar name={me.name || me.code} headUrl={me.headUrl} seed={me.id} size={40} />
        <div className="sidebar-me">
          <strong data-testid="me-name">{me.name || me.code}</strong>
          <span className="muted">@{me.code}</span>
        </div>
        <button
          type="button"
          className="icon-button"
          aria-label={t('settings.title')}
          title={t('settings.title')}
          onClick={() => {
            // Already on /setting (another pane opened since), the hash does not change: show it here.
            setPane({ kind: 'settings' });
            goTo('#/setting');
          }}
          data-testid="open-settings"
        >
          <span aria-hidden="true">⚙</span>
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={t('common.logout')}
          title={t('common.logout')}
          onClick={() => logout({ callServer: true })}
        >
          <LogoutIcon />
        </button>
      </header>
      <GlobalSearch onActive={setSearching} />
      <div className="tabs" role="tablist" hidden={searching}>
        {tabs.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            aria-selected={tab === item.id}
            className={tab === item.id ? 'tab tab-active' : 'tab'}
            onClick={() => setTab(item.id)}
            data-testid={`tab-${item.id}`}
          >
            {item.icon}
            <span>{item.label}</span>
            <CountBadge count={item.count} label={item.countLabel} />
          </button>
        ))}
      </div>
      <div className="sidebar-body" role="tabpanel" hidden={searching}>
        {tab === 'chats' ? <SessionList sessions={sessions} /> : <Contacts />}
      </div>
    </aside>
  );
}
