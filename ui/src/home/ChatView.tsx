import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useRef } from 'react';
import { useHistory } from '../api/hooks';
import { HISTORY_PAGE_SIZE } from '../api/keys';
import type { UserInfo } from '../api/types';
import { mergeTimeline } from '../chat/timeline';
import { Avatar } from '../components/Avatar';
import { CallButtons } from '../calls/CallButtons';
import { LockIcon } from '../components/icons';
import { useT } from '../i18n';
import { liveMessagesAtom, readMarksAtom } from '../state/chat';
import { resyncAtom } from '../state/connection';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { PaneHeader } from './PaneHeader';
import { displayName } from './SessionItem';
import { usePeer } from './usePeer';
import { useReadAck } from './useReadAck';

export function ChatView({ peerId, me }: { peerId: string; me: UserInfo }) {
  const t = useT();
  const peer = usePeer(peerId);
  const history = useHistory(peerId);
  const live = useAtomValue(liveMessagesAtom)[peerId];
  const marks = useAtomValue(readMarksAtom)[peerId];
  const resync = useAtomValue(resyncAtom);

  const pages = history.data;
  const timeline = useMemo(() => {
    const older = pages ? [...pages].reverse().flat() : [];
    return mergeTimeline(older, live ?? [], me.id, marks ?? {});
  }, [pages, live, marks, me.id]);

  useReadAck(peerId, me.id, timeline, peer.unreadCount);

  const seenResync = useRef(resync);
  const { mutate } = history;
  useEffect(() => {
    if (seenResync.current === resync) return;
    seenResync.current = resync;
    void mutate();
  }, [resync, mutate]);

  const lastPage = pages?.[pages.length - 1];
  const hasMore = !!lastPage && lastPage.length >= HISTORY_PAGE_SIZE;
  const loadingMore = history.isLoading || (history.size > 0 && pages !== undefined && pages.length < history.size);
  const title = displayName(peer) || '\u00a0';

  return (
    <section className="chat" aria-label={title} data-testid="chat-view" data-peer-id={peerId}>
      <PaneHeader
        title={title}
        subtitle={
          <>
            <LockIcon /> {peer.code ? `@${peer.code}` : 'AES-256-GCM'}
          </>
        }
        leading={<Avatar name={peer.name} remark={peer.remark} headUrl={peer.headUrl} seed={peerId} size={36} />}
        actions={<CallButtons peerId={peerId} />}
      />
      <MessageList
        messages={timeline}
        me={me.id}
        loading={history.isLoading}
        loadingMore={loadingMore}
        hasMore={hasMore}
        failed={history.error && !pages ? history.error.message || t('common.requestFailed') : null}
        onLoadMore={() => void history.setSize(history.size + 1)}
        onRetry={() => void mutate()}
      />
      <Composer peerId={peerId} />
    </section>
  );
}
