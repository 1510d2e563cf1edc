import { useAtom, useAtomValue } from 'jotai';
import { useState } from 'react';
import { useFriendApplies, useFriendGroups } from '../api/hooks';
import { pendingReceived } from '../chat/applies';
import { Avatar } from '../components/Avatar';
import { AddUserIcon, ContactsIcon, InboxIcon } from '../components/icons';
import { GroupListDialog } from '../groups/GroupListDialog';
import { useT } from '../i18n';
import { isOnline, presenceAtom } from '../state/presence';
import { paneAtom } from '../state/ui';
import { CountBadge } from './CountBadge';
import { shownName } from './systemAccount';

export function Contacts() {
  const t = useT();
  const [pane, setPane] = useAtom(paneAtom);
  const groups = useFriendGroups();
  const applies = useFriendApplies();
  const friends = (groups.data ?? []).flatMap((group) => group.friends);
  const pending = pendingReceived(applies.data?.records);
  const [groupsOpen, setGroupsOpen] = useState(false);
  const presence = useAtomValue(presenceAtom);

  return (
    <nav className="contacts" aria-label={t('home.contacts')}>
      <ul className="session-list">
        <li>
          <button
            type="button"
            className={`session-item session-item-compact${pane.kind === 'addFriend' ? ' session-item-active' : ''}`}
            onClick={() => setPane({ kind: 'addFriend' })}
            data-testid="open-add-friend"
          >
            <Avatar icon={<AddUserIcon />} tone="#2f6bff" size={32} />
            <span className="session-name">{t('contacts.addFriend')}</span>
          </button>
        </li>
        <li>
          <button
            type="button"
            className={`session-item session-item-compact${pane.kind === 'requests' ? ' session-item-active' : ''}`}
            onClick={() => setPane({ kind: 'requests' })}
            data-testid="open-requests"
          >
            <Avatar icon={<InboxIcon />} tone="#e2733a" size={32} />
            <span className="session-name">{t('contacts.newFriends')}</span>
            <CountBadge count={pending} label={t('requests.pending', { n: pending })} testId="requests-badge" />
          </button>
        </li>
        <li>
          <button
            type="button"
            className="session-item session-item-compact"
            onClick={() => setGroupsOpen(true)}
            data-testid="open-groups"
          >
            <Avatar icon={<ContactsIcon />} tone="#22a06b" size={32} />
            <span className="session-name">{t('group.groups')}</span>
          </button>
        </li>
      </ul>
      {groupsOpen ? <GroupListDialog onClose={() => setGroupsOpen(false)} /> : null}
      <h2 className="list-heading">
        {t('contacts.myFriends')} {groups.data ? <span className="muted">{friends.length}</span> : null}
      </h2>
      {groups.isLoading ? <p className="list-note">{t('common.loading')}</p> : null}
      {groups.data && friends.length === 0 ? <p className="list-note">{t('contacts.noFriends')}</p> : null}
      <ul className="session-list" data-testid="friend-list">
        {friends.map((friend) => {
          const active = pane.kind === 'chat' && pane.peerId === friend.id;
          const online = isOnline(presence, friend);
          return (
            <li key={friend.id}>
              <button
                type="button"
                className={`session-item${active ? ' session-item-active' : ''}`}
                aria-current={active ? 'true' : undefined}
                onClick={() => setPane({ kind: 'chat', peerId: friend.id })}
                data-testid="friend-item"
                data-peer-id={friend.id}
                data-online={online ? 'true' : 'false'}
              >
                <span className="presence">
                  <Avatar
                    name={friend.name}
                    remark={friend.remark}
                    headUrl={friend.headUrl}
                    seed={friend.id}
                    levelCode={friend.memberLevelCode}
                  />
                  {online ? (
                    <span className="presence-dot" role="img" aria-label={t('contacts.online')} data-testid="online-dot" />
                  ) : null}
                </span>
                <span className="session-text">
                  <span className="session-name">{shownName(friend, t)}</span>
                  <span className="session-preview">@{friend.code}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
