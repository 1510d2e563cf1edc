import { useAtom, useAtomValue } from 'jotai';
import type { SWRResponse } from 'swr';
import type { Session } from '../api/types';
import { runSessionAction } from '../chat/conversationActions';
import { opensMarked } from '../chat/conversations';
import { useT } from '../i18n';
import { draftsAtom } from '../state/chat';
import { paneAtom } from '../state/ui';
import { SessionItem } from './SessionItem';

export function SessionList({ sessions }: { sessions: SWRResponse<Session[]> }) {
  const t = useT();
  const [pane, setPane] = useAtom(paneAtom);
  const openPeerId = pane.kind === 'chat' ? pane.peerId : null;
  const list = sessions.data ?? [];
  const drafts = useAtomValue(draftsAtom);

  return (
    <nav className="session-nav" aria-label={t('home.chats')}>
      {sessions.error && !sessions.data ? (
        <div className="list-note">
          <p>{sessions.error.message}</p>
          <button type="button" className="button button-secondary" onClick={() => void sessions.mutate()}>
            {t('common.retry')}
          </button>
        </div>
      ) : null}
      {sessions.isLoading ? <p className="list-note">{t('common.loading')}</p> : null}
      {sessions.data && list.length === 0 ? <p className="list-note">{t('home.noChats')}</p> : null}
      <ul className="session-list" data-testid="session-list">
        {list.map((session) => (
          <li key={session.id}>
            <SessionItem
              session={session}
              active={session.id === openPeerId}
              draft={session.id === openPeerId ? undefined : drafts[session.id]?.trim()}
              onOpen={() => {
                setPane({ kind: 'chat', peerId: session.id, chatType: session.chatType });
                if (opensMarked(session)) void runSessionAction(session, 'markRead');
              }}
              onAction={(action) => {
                if (action === 'remove' && session.id === openPeerId) setPane({ kind: 'none' });
                void runSessionAction(session, action);
              }}
            />
          </li>
        ))}
      </ul>
    </nav>
  );
}
