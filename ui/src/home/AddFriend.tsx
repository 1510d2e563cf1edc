import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { findMember, requestFriend } from '../api/endpoints';
import { ApiError } from '../api/http';
import { useFriendGroups } from '../api/hooks';
import { keys } from '../api/keys';
import type { PublicInfo, UserInfo } from '../api/types';
import { refreshAfter } from '../chat/refresh';
import { Avatar } from '../components/Avatar';
import { SearchIcon } from '../components/icons';
import { useT } from '../i18n';
import { showToast } from '../state/toast';
import { paneAtom } from '../state/ui';
import { PaneHeader } from './PaneHeader';
import { displayName } from './SessionItem';

type Search = { state: 'idle' } | { state: 'busy' } | { state: 'none' } | { state: 'found'; member: PublicInfo };

export function AddFriend({ me }: { me: UserInfo }) {
  const t = useT();
  const [keyword, setKeyword] = useState('');
  const [search, setSearch] = useState<Search>({ state: 'idle' });

  async function find(event: React.FormEvent) {
    event.preventDefault();
    const value = keyword.trim();
    if (!value) return;
    setSearch({ state: 'busy' });
    try {
      const member = await findMember(value);
      setSearch(member ? { state: 'found', member } : { state: 'none' });
    } catch (error) {
      showToast(error instanceof ApiError ? error.message : t('common.requestFailed'), 'error');
      setSearch({ state: 'idle' });
    }
  }

  return (
    <section className="pane-section" aria-label={t('addFriend.title')}>
      <PaneHeader title={t('addFriend.title')} />
      <div className="pane-scroll">
        <form className="search-form" onSubmit={find} role="search" data-testid="add-friend-form">
          <input
            type="search"
            value={keyword}
            onChange={(event) => setKeyword(event.target.value)}
            placeholder={t('addFriend.keyword')}
            aria-label={t('addFriend.keyword')}
            data-testid="add-friend-keyword"
          />
          <button
            type="submit"
            className="button button-primary"
            disabled={search.state === 'busy' || !keyword.trim()}
            data-testid="add-friend-search"
          >
            <SearchIcon />
            {t('addFriend.search')}
          </button>
        </form>
        {search.state === 'none' ? (
          <p className="list-note" role="status">
            {t('addFriend.notFound')}
          </p>
        ) : null}
        {search.state === 'found' ? <MemberCard key={search.member.id} member={search.member} me={me} /> : null}
      </div>
    </section>
  );
}

function MemberCard({ member, me }: { member: PublicInfo; me: UserInfo }) {
  const t = useT();
  const setPane = useSetAtom(paneAtom);
  const friends = useFriendGroups();
  const [greeting, setGreeting] = useState(t('addFriend.greetingDefault', { name: me.name || me.code }));
  const [remark, setRemark] = useState('');
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const isFriend = friends.data?.some((group) => group.friends.some((friend) => friend.id === member.id)) ?? false;

  async function send(event: React.FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const written = await requestFriend(member.id, remark.trim(), greeting.trim());
      setSent(true);
      showToast(t('addFriend.sent'), 'success');
      void refreshAfter(keys.applies, written.position);
    } catch {
      // the request layer has shown the server's reason
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className="member-card" data-testid="add-friend-result" aria-label={displayName(member)}>
      <div className="member-card-head">
        <Avatar name={member.name} headUrl={member.headUrl} seed={member.id} size={56} />
        <div>
          <h2>{displayName(member)}</h2>
          <p className="muted">@{member.code}</p>
        </div>
      </div>
      {member.id === me.id ? (
        <p className="muted">{t('addFriend.self')}</p>
      ) : isFriend ? (
        <div className="member-card-actions">
          <span className="muted">{t('addFriend.alreadyFriend')}</span>
          <button
            type="button"
            className="button button-primary"
            onClick={() => setPane({ kind: 'chat', peerId: member.id })}
          >
            {t('contacts.message')}
          </button>
        </div>
      ) : sent ? (
        <p className="pill pill-waiting" data-testid="request-sent">
          {t('requests.underReview')}
        </p>
      ) : (
        <form className="form" onSubmit={send}>
          <label className="field">
            <span>{t('addFriend.greeting')}</span>
            <textarea value={greeting} onChange={(event) => setGreeting(event.target.value)} rows={2} maxLength={200} />
          </label>
          <label className="field">
            <span>{t('addFriend.remark')}</span>
            <input value={remark} onChange={(event) => setRemark(event.target.value)} maxLength={40} />
          </label>
          <button type="submit" className="button button-primary" disabled={busy} data-testid="send-friend-request">
            {t('addFriend.send')}
          </button>
        </form>
      )}
    </article>
  );
}
