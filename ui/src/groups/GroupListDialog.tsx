import { useSetAtom } from 'jotai';
import { useState } from 'react';
import type { Group } from '../api/types';
import { Dialog } from '../components/Dialog';
import { useT, type MessageKey } from '../i18n';
import { paneAtom } from '../state/ui';
import { useMyGroups } from './api';
import { CreateGroupDialog } from './CreateGroupDialog';
import { GroupAvatar } from './GroupAvatar';
import { filterGroups, sortGroups } from './logic';
import './groups.css';

/** The groups I manage and the groups I joined, with a search box and the way to create one. */
export function GroupListDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const setPane = useSetAtom(paneAtom);
  const groups = useMyGroups();
  const [query, setQuery] = useState('');
  const [creating, setCreating] = useState(false);

  if (creating) return <CreateGroupDialog onClose={onClose} onBack={() => setCreating(false)} />;

  const open = (group: Group) => {
    setPane({ kind: 'group', groupId: group.id });
    onClose();
  };
  const sections: { key: 'managed' | 'joined'; title: MessageKey }[] = [
    { key: 'managed', title: 'group.managed' },
    { key: 'joined', title: 'group.joined' },
  ];
  const shown = sections.map((section) => ({
    ...section,
    list: sortGroups(filterGroups(groups.data?.[section.key] ?? [], query)),
  }));
  const none = groups.data && shown.every((section) => section.list.length === 0);

  return (
    <Dialog
      title={t('group.groups')}
      onClose={onClose}
      wide
      testId="group-list"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('common.close')}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => setCreating(true)}
            data-testid="group-create-open"
          >
            {t('group.create')}
          </button>
        </>
      }
    >
      <input
        type="search"
        className="text-input"
        placeholder={t('group.search')}
        aria-label={t('group.search')}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        data-testid="group-search"
      />
      <div className="group-list-body">
        {groups.isLoading ? <p className="list-note">{t('common.loading')}</p> : null}
        {groups.error && !groups.data ? <p className="list-note">{groups.error.message}</p> : null}
        {none ? <p className="list-note">{t(query.trim() ? 'group.noMatch' : 'group.none')}</p> : null}
        {shown.map((section) =>
          section.list.length > 0 ? (
            <section key={section.key} data-testid={`group-section-${section.key}`}>
              <h3 className="list-heading">{t(section.title)}</h3>
              <ul className="picker-list">
                {section.list.map((group) => (
                  <li key={group.id}>
                    <button
                      type="button"
                      className="picker-item"
                      onClick={() => open(group)}
                      data-testid="group-item"
                      data-group-id={group.id}
                    >
                      <GroupAvatar group={group} size={32} />
                      <span className="picker-name">
                        <span>{group.name}</span>
                        <span className="muted">{t('group.memberCount', { n: group.memberCount })}</span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ) : null,
        )}
      </div>
    </Dialog>
  );
}
