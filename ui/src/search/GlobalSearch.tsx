// One search box for chats, contacts and message text: chats and contacts are the lists the
// client holds already; message text is searched by the server (GET /v1/message/search), debounced.
import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { useFriendGroups, useSessions } from '../api/hooks';
import type { ChatType, Message } from '../api/types';
import { searchableText } from '../chat/search';
import { Avatar } from '../components/Avatar';
import { CloseIcon, SearchIcon } from '../components/icons';
import { useT } from '../i18n';
import { paneAtom } from '../state/ui';
import { foldText, foldedParts, matchesFolded } from './fold';
import './globalSearch.css';

export const SEARCH_DEBOUNCE_MS = 300;

export interface SearchHit {
  message: Message;
  conversation: { type: ChatType; id: string; name: string; headUrl: string };
}

/** How the box reports what it shows: the sidebar shows its list when the box is empty. */
export function GlobalSearch({ onActive }: { onActive: (active: boolean) => void }) {
  const t = useT();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setQuery(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);
  useEffect(() => onActive(text.trim() !== ''), [text, onActive]);

  return (
    <div className="global-search" role="search">
      <label className="global-search-box">
        <SearchIcon />
        <input
          type="search"
          value={text}
          maxLength={100}
          placeholder={t('search.global.placeholder')}
          aria-label={t('search.global.label')}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setText('');
          }}
          data-testid="global-search"
        />
        {text ? (
          <button
            type="button"
            className="icon-button"
            aria-label={t('search.global.clear')}
            title={t('search.global.clear')}
            onClick={() => setText('')}
          >
            <CloseIcon />
          </button>
        ) : null}
      </label>
      {text.trim() && query ? <SearchResults query={query} onOpen={() => setText('')} /> : null}
    </div>
  );
}

function SearchResults({ query, onOpen }: { query: string; onOpen: () => void }) {
  const t = useT();
  const setPane = useSetAtom(paneAtom);
  const sessions = useSessions().data ?? [];
  const groups = useFriendGroups().data ?? [];
  const [pages, setPages] = useState<string[]>([]);
  useEffect(() => setPages([]), [query]);
  const folded = foldText(query);

  const chats = sessions.filter((s) => matchesFolded(`${s.remark} ${s.name}`, folded));
  const seen = new Set<string>();
  const contacts = groups
    .flatMap((g) => g.friends)
    .filter((f) => {
      if (seen.has(f.friendMemberId)) return false;
      seen.add(f.friendMemberId);
      return matchesFolded(`${f.remark} ${f.name} ${f.code}`, folded);
    });

  const open = (peerId: string, chatType: ChatType, messageId?: string) => {
    setPane({ kind: 'chat', peerId, chatType, messageId });
    onOpen();
  };

  return (
    <div className="global-search-results" data-testid="global-search-results">
      {chats.length > 0 ? (
        <section aria-label={t('search.global.chats')}>
          <h3 className="list-heading">{t('search.global.chats')}</h3>
          <ul className="session-list">
            {chats.map((s) => (
              <li key={`chat-${s.id}`}>
                <button type="button" className="session-item session-item-compact" onClick={() => open(s.id, s.chatType)}>
                  <Avatar name={s.name} remark={s.remark} headUrl={s.headUrl} seed={s.id} size={32} />
                  <span className="session-name">{s.remark || s.name}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {contacts.length > 0 ? (
        <section aria-label={t('search.global.contacts')}>
          <h3 className="list-heading">{t('search.global.contacts')}</h3>
          <ul className="session-list">
            {contacts.map((f) => (
              <li key={`contact-${f.friendMemberId}`}>
                <button type="button" className="session-item session-item-compact" onClick={() => open(f.friendMemberId, 'Friend')}>
                  <Avatar name={f.name} remark={f.remark} headUrl={f.headUrl} seed={f.friendMemberId} size={32} />
                  <span className="session-name">{f.remark || f.name}</span>
                  <span className="session-time">@{f.code}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-label={t('search.global.messages')}>
        <h3 className="list-heading">{t('search.global.messages')}</h3>
        <MessagePage query={query} before="" onOpen={open} last={pages.length === 0} onMore={(id) => setPages([id])} />
        {pages.map((before, i) => (
          <MessagePage
            key={before}
            query={query}
            before={before}
            onOpen={open}
            last={i === pages.length - 1}
            onMore={(id) => setPages((p) => [...p.slice(0, i + 1), id])}
          />
        ))}
      </section>
    </div>
  );
}

const PAGE = 20;

function MessagePage({
  query,
  before,
  last,
  onOpen,
  onMore,
}: {
  query: string;
  before: string;
  last: boolean;
  onOpen: (peerId: string, chatType: ChatType, messageId?: string) => void;
  onMore: (before: string) => void;
}) {
  const t = useT();
  const params = new URLSearchParams({ q: query, pageSize: String(PAGE) });
  if (before) params.set('messageId', before);
  const { data, error, isLoading } = useSWR<SearchHit[]>(`/v1/message/search?${params}`, { revalidateOnFocus: false });
  if (error) return <p className="list-note">{error.message}</p>;
  if (isLoading || !data) return before ? null : <p className="list-note">{t('search.global.searching')}</p>;
  if (data.length === 0 && !before) return <p className="list-note" data-testid="global-search-none">{t('search.global.none')}</p>;
  const lastHit = data[data.length - 1];
  return (
    <>
      <ul className="session-list">
        {data.map((hit) => (
          <li key={hit.message.id}>
            <button
              type="button"
              className="session-item global-search-hit"
              onClick={() => onOpen(hit.conversation.id, hit.conversation.type, hit.message.id)}
              data-testid="global-search-hit"
            >
              <Avatar name={hit.conversation.name} headUrl={hit.conversation.headUrl} seed={hit.conversation.id} size={36} />
              <span className="session-text">
                <span className="session-line">
                  <span className="session-name">{hit.conversation.name}</span>
                  <span className="session-time">{new Date(hit.message.serverReceiveTime).toLocaleDateString()}</span>
                </span>
                <span className="session-preview">
                  {foldedParts(searchableText(hit.message) || hit.message.content, query).map((part, i) =>
                    part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
                  )}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {last && data.length === PAGE && lastHit ? (
        <button type="button" className="button button-secondary global-search-more" onClick={() => onMore(lastHit.message.id)}>
          {t('search.global.more')}
        </button>
      ) : null}
    </>
  );
}
