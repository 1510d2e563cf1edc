import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { answerFriendRequest } from '../api/endpoints';
import { useFriendApplies } from '../api/hooks';
import { keys } from '../api/keys';
import type { Apply } from '../api/types';
import { refreshAfter } from '../chat/refresh';
import { Avatar } from '../components/Avatar';
import { useT } from '../i18n';
import { readNoticesAbout } from '../notices/api';
import { paneAtom } from '../state/ui';
import { PaneHeader } from './PaneHeader';
import { displayName } from './SessionItem';

export function FriendRequests() {
  const t = useT();
  const applies = useFriendApplies();
  const records = applies.data?.records ?? [];
  return (
    <section className="pane-section" aria-label={t('contacts.newFriends')}>
      <PaneHeader title={t('contacts.newFriends')} />
      <div className="pane-scroll">
        {applies.isLoading ? <p className="list-note">{t('common.loading')}</p> : null}
        {applies.data && records.length === 0 ? <p className="list-note">{t('contacts.noRequests')}</p> : null}
        <ul className="request-list" data-testid="request-list">
          {records.map((apply) => (
            <li key={apply.id}>
              <RequestRow apply={apply} />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function RequestRow({ apply }: { apply: Apply }) {
  const t = useT();
  const setPane = useSetAtom(paneAtom);
  const [busy, setBusy] = useState(false);
  const name = displayName(apply.member);

  async function answer(status: 'accepted' | 'rejected') {
    setBusy(true);
    try {
      const written = await answerFriendRequest(apply.id, status);
      await Promise.all([
        refreshAfter(keys.applies, written.position),
        refreshAfter(keys.friends, written.position),
        readNoticesAbout(apply.id),
      ]);
    } catch {
      // the request layer has shown the server's reason
    } finally {
      setBusy(false);
    }
  }

  let actions: React.ReactNode;
  if (apply.status === 'pending' && apply.direction === 'received') {
    actions = (
      <>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => answer('rejected')}
          data-testid="request-reject"
        >
          {t('requests.reject')}
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() => answer('accepted')}
          data-testid="request-accept"
        >
          {t('requests.accept')}
        </button>
      </>
    );
  } else if (apply.status === 'pending') {
    actions = <span className="pill pill-waiting">{t('requests.underReview')}</span>;
  } else if (apply.status === 'accepted') {
    actions = (
      <>
        <span className="pill pill-done">{t('requests.accepted')}</span>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => setPane({ kind: 'chat', peerId: apply.member.id })}
        >
          {t('contacts.message')}
        </button>
      </>
    );
  } else {
    actions = <span className="pill">{t('requests.rejected')}</span>;
  }

  return (
    <article
      className="request-row"
      data-testid="request-item"
      data-status={apply.status}
      data-direction={apply.direction}
      aria-label={name}
    >
      <Avatar name={apply.member.name} headUrl={apply.member.headUrl} seed={apply.member.id} size={44} />
      <div className="request-text">
        <strong>{name}</strong>
        <span className="muted">
          {apply.content || (apply.direction === 'received' ? t('requests.incoming') : t('requests.outgoing'))}
        </span>
      </div>
      <div className="request-actions">{actions}</div>
    </article>
  );
}
