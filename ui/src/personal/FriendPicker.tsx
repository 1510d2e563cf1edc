import { useState } from 'react';
import type { Friend } from '../api/types';
import { Avatar } from '../components/Avatar';
import { useT, type MessageKey } from '../i18n';
import { displayName } from '../home/SessionItem';
import { isSystemAccount } from '../home/systemAccount';
import { showToast } from '../state/toast';
import { filterFriends, selectAll, toggle } from './logic';

/** Friends with a search box and checkboxes; the selection is capped at max. */
export function FriendPicker({
  friends,
  selected,
  onChange,
  max,
  tooMany,
  testId,
}: {
  friends: Friend[];
  selected: string[];
  onChange: (next: string[]) => void;
  max: number;
  tooMany: MessageKey;
  testId: string;
}) {
  const t = useT();
  const [query, setQuery] = useState('');
  const shown = filterFriends(
    friends.filter((friend) => !isSystemAccount(friend)),
    query,
  );
  return (
    <div className="friend-picker" data-testid={testId}>
      <div className="friend-picker-bar">
        <input
          type="search"
          className="friend-picker-search"
          placeholder={t('mass.search')}
          aria-label={t('mass.search')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          data-testid={`${testId}-search`}
        />
        {max > 10 ? (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              const next = selectAll(selected, shown.map((f) => f.id), max);
              if (next.capped) showToast(t(tooMany), 'error');
              onChange(next.selected);
            }}
          >
            {t('mass.selectAll')}
          </button>
        ) : null}
      </div>
      <ul className="friend-picker-list">
        {shown.map((friend) => (
          <li key={friend.id}>
            <label className="friend-picker-item" data-testid={`${testId}-friend`} data-peer-id={friend.id}>
              <input
                type="checkbox"
                checked={selected.includes(friend.id)}
                onChange={() => {
                  const next = toggle(selected, friend.id, max, tooMany);
                  if (next.refused) showToast(t(next.refused), 'error');
                  onChange(next.selected);
                }}
              />
              <Avatar name={friend.name} remark={friend.remark} headUrl={friend.headUrl} seed={friend.id} size={28} />
              <span className="session-name">{displayName(friend)}</span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}
