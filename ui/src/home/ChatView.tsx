import { addToFavourites } from '../chat/favourites';
import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useHistory } from '../api/hooks';
import { HISTORY_PAGE_SIZE } from '../api/keys';
import type { ChatType, Message, UserInfo } from '../api/types';
import { clearChat, copyToClipboard, deleteMessages, forward, recall } from '../chat/actions';
import { applyChanges, expandForwardBatches } from '../chat/changes';
import { FORWARD_TARGETS_MAX, forwardRefusal, inChatOrder, toggleSelection } from '../chat/forward';
import { forgetTimeline, rememberTimeline } from '../chat/life';
import { copyText, messageActions, type MessageAction } from '../chat/menu';
import { matchesQuery } from '../chat/search';
import { firstUnread, historyBehind, mergeTimeline } from '../chat/timeline';
import { Avatar } from '../components/Avatar';
import { CallButtons } from '../calls/CallButtons';
import { ConfirmDialog } from '../components/Dialog';
import { CloseIcon, ImageIcon, MoreIcon, SearchIcon } from '../components/icons';
import { GroupAvatar } from '../groups/GroupAvatar';
import { GroupMuteNotice } from '../groups/GroupMuteNotice';
import { useGroupChat } from '../groups/useGroupChat';
import { pinMessage, refreshPinned, unpinMessage, usePinnedMessages } from '../groups/api';
import { eventLineText, mayDeleteForEveryone, mayListReaders, mayPin, resolveMentions, senderTone } from '../groups/chatLogic';
import { PinnedBar } from '../groups/PinnedBar';
import { ReadersDialog } from '../groups/ReadersDialog';
import { previewText } from '../chat/preview';
import { PopupMenu } from '../components/PopupMenu';
import { useT, type MessageKey } from '../i18n';
import { composerModeAtom, liveDroppedAtom, liveMessagesAtom, messageChangesAtom, readMarksAtom } from '../state/chat';
import { resyncAtom } from '../state/connection';
import { showToast } from '../state/toast';
import { paneAtom } from '../state/ui';
import { Composer } from './Composer';
import { MediaHistory } from './MediaHistory';
import type { BubbleEnv } from './MessageBubble';
import { MessageList, keyOf } from './MessageList';
import { PaneHeader } from './PaneHeader';
import { shownName } from './systemAccount';
import { TargetPicker } from './TargetPicker';
import { usePeer } from './usePeer';
import { useMentionAck, useReadAck } from './useReadAck';

const ACTION_LABELS: Record<MessageAction, MessageKey> = {
  reply: 'menu.reply',
  edit: 'menu.edit',
  recall: 'menu.recall',
  copy: 'menu.copy',
  forward: 'menu.forward',
  select: 'menu.select',
  favourite: 'fav.add',
  deleteForMe: 'menu.deleteForMe',
  deleteForEveryone: 'menu.deleteForEveryone',
  pin: 'menu.pin',
  unpin: 'menu.unpin',
  readers: 'gchat.readers',
};

type Confirm = { kind: 'deleteForMe' | 'deleteForEveryone'; ids: string[] } | { kind: 'clear' };

/** landOn is a message to show once the chat opens (a search result): older pages load until it is there. */
export function ChatView({ peerId, chatType, me, landOn }: { peerId: string; chatType: ChatType; me: UserInfo; landOn?: string }) {
  const t = useT();
  const isGroup = chatType === 'Group';
  const peer = usePeer(peerId);
  const { group, refusal, muteLeft, memberNames, memberHeads, mentionable, tones } = useGroupChat(isGroup ? peerId : null, me.id);
  const myRole = group?.myRole;
  const pinned = usePinnedMessages(isGroup ? peerId : null).data;
  const history = useHistory(peerId, chatType);
  const live = useAtomValue(liveMessagesAtom)[peerId];
  const marks = useAtomValue(readMarksAtom)[peerId];
  const changes = useAtomValue(messageChangesAtom)[peerId];
  const resync = useAtomValue(resyncAtom);
  const [modes, setModes] = useAtom(composerModeAtom);
  const setPane = useSetAtom(paneAtom);

  /** a message to scroll to: a quote or a search result was clicked */
  const [jump, setJump] = useState<{ id: string; nonce: number } | null>(null);
  const [searchOpen, setSearchOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [selection, setSelection] = useState<string[] | null>(null);
  const [menu, setMenu] = useState<{ message: Message; x: number; y: number } | null>(null);
  const [headerMenu, setHeaderMenu] = useState<{ x: number; y: number } | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [forwardIds, setForwardIds] = useState<string[] | null>(null);
  const [mediaOpen, setMediaOpen] = useState(false);
  const [readersOf, setReadersOf] = useState<string | null>(null);
  const headerMenuButton = useRef<HTMLButtonElement>(null);

  const pages = history.data;
  const timeline = useMemo(() => {
    const older = pages ? [...pages].reverse().flat() : [];
    return applyChanges(mergeTimeline(older, live ?? [], me.id, marks ?? {}), changes);
  }, [pages, live, marks, me.id, changes]);

  useEffect(() => {
    rememberTimeline(peerId, timeline);
  }, [peerId, timeline]);
  useEffect(() => () => forgetTimeline(peerId), [peerId]);

  // The unread count as the chat opens marks where reading resumes; it stays put as the chat is read.
  const [unreadAtOpen] = useState(peer.unreadCount);
  const [unreadFrom, setUnreadFrom] = useState<string | null>(null);
  useEffect(() => {
    if (!pages || unreadFrom !== null) return;
    const first = firstUnread(timeline, me.id, unreadAtOpen);
    setUnreadFrom(first ? keyOf(first) : '');
  }, [pages, timeline, me.id, unreadAtOpen, unreadFrom]);

  useReadAck(peerId, chatType, me.id, timeline, peer.unreadCount);
  useMentionAck(peerId, peer.atCount);

  const seenResync = useRef(resync);
  const { mutate } = history;
  useEffect(() => {
    if (seenResync.current === resync) return;
    seenResync.current = resync;
    void mutate();
  }, [resync, mutate]);

  // A chat left open through more pushes than the live list keeps: reload the history so that the
  // messages the live list dropped are in its pages. Once for each drop: a reload that fails is
  // tried again at the next one, not in a loop.
  const dropped = useAtomValue(liveDroppedAtom)[peerId] ?? 0;
  const reloadedFor = useRef(0);
  useEffect(() => {
    if (!pages || reloadedFor.current === dropped || !historyBehind(pages.flat(), dropped)) return;
    reloadedFor.current = dropped;
    void mutate();
  }, [pages, dropped, mutate]);

  const lastPage = pages?.[pages.length - 1];
  const hasMore = !!lastPage && lastPage.length >= HISTORY_PAGE_SIZE;
  const loadingMore = history.isLoading || (history.size > 0 && pages !== undefined && pages.length < history.size);
  const title = (isGroup ? group?.name : shownName(peer, t)) || '\u00a0';
  const searching = searchOpen && query.trim() !== '';
  const shown = useMemo(
    () => (searching ? timeline.filter((message) => matchesQuery(message, query)) : timeline),
    [searching, timeline, query],
  );
  const byId = useMemo(() => new Map(timeline.filter((m) => m.id).map((m) => [m.id, m])), [timeline]);

  const [landing, setLanding] = useState(landOn);
  useEffect(() => setLanding(landOn), [landOn]);
  useEffect(() => {
    if (!landing || pages === undefined || loadingMore) return;
    if (byId.has(landing)) {
      setJump({ id: landing, nonce: Date.now() });
      setLanding(undefined);
    } else if (hasMore) void history.setSize(history.size + 1);
    else setLanding(undefined);
  }, [landing, pages, loadingMore, byId, hasMore, history]);

  // A reply or an edit stops when its message is recalled, deleted or cleared meanwhile.
  const modeId = modes[peerId]?.message.id;
  const modeGone = !!modeId && pages !== undefined && (!byId.get(modeId) || !!byId.get(modeId)?.recalled);
  useEffect(() => {
    if (modeGone) setModes((all) => ({ ...all, [peerId]: undefined }));
  }, [modeGone, peerId, setModes]);

  function onAction(action: MessageAction, message: Message) {
    switch (action) {
      case 'reply':
        setModes((all) => ({ ...all, [peerId]: { kind: 'reply', message } }));
        return;
      case 'edit':
        setModes((all) => ({ ...all, [peerId]: { kind: 'edit', message, text: message.content } }));
        return;
      case 'recall':
        void recall(peerId, message);
        return;
      case 'copy':
        void copyToClipboard(copyText(message));
        return;
      case 'forward':
        setForwardIds([message.id]);
        return;
      case 'select':
        setSelection([message.id]);
        return;
      case 'favourite':
        void addToFavourites(message);
        return;
      case 'pin':
      case 'unpin':
        void togglePin(action, message);
        return;
      case 'readers':
        setReadersOf(message.id);
        return;
      case 'deleteForMe':
      case 'deleteForEveryone':
        setConfirm({ kind: action, ids: expandForwardBatches(timeline, [message.id]) });
        return;
    }
  }

  function nameOf(memberId: string): string {
    return isGroup ? (memberNames.get(memberId) ?? '') : title;
  }

  /** In a group the owner and the admins delete anyone's messages for everyone, and pin them. */
  function actionsOf(message: Message): MessageAction[] {
    const actions = messageActions(message, me.id, Date.now());
    if (!isGroup) return actions;
    const out: MessageAction[] = actions.filter((action) => action !== 'deleteForEveryone');
    if (message.id && message.msgStatus !== 'sending' && message.msgStatus !== 'failedSent') {
      if (mayPin(myRole) && message.msgType !== 'Event' && !message.recalled) {
        out.unshift(pinned?.some((item) => item.id === message.id) ? 'unpin' : 'pin');
      }
      if (mayListReaders(message, me.id)) out.unshift('readers');
      if (mayDeleteForEveryone('Group', message, me.id, myRole)) out.push('deleteForEveryone');
    }
    return out;
  }

  async function togglePin(action: 'pin' | 'unpin', message: Message) {
    try {
      const { position } = await (action === 'pin' ? pinMessage(peerId, message.id) : unpinMessage(peerId, message.id));
      await refreshPinned(peerId, position);
      showToast(t(action === 'pin' ? 'gchat.pinnedDone' : 'gchat.unpinnedDone'), 'success');
    } catch {
      // the fetch layer has shown the server's text
    }
  }

  const everyone = t('gchat.everyone');
  function mentions(text: string, at: boolean): string {
    return isGroup ? resolveMentions(text, nameOf, everyone, at) : text;
  }

  const env: BubbleEnv = {
    me: me.id,
    nameOf,
    headOf: (memberId) => memberHeads.get(memberId) ?? '',
    toneOf: (memberId) => tones.get(memberId) ?? senderTone(memberId),
    showSenders: isGroup,
    query: searching ? query : '',
    find: (id) => byId.get(id),
    isRemoved: (id) => !!changes?.removed[id],
    selecting: selection !== null,
    isSelected: (id) => !!selection?.includes(id),
    onToggle: (message) => {
      const result = toggleSelection(selection ?? [], message);
      if (result.refusal) showToast(t(result.refusal), 'error');
      setSelection(result.selected);
    },
    onMenu: (message, x, y) => {
      if (actionsOf(message).length > 0) setMenu({ message, x, y });
    },
    onJump: (id) => setJump({ id, nonce: Date.now() }),
    onOpenMember: (memberId) => setPane({ kind: 'member', memberId }),
    mentions,
    eventText: (message) => (isGroup ? eventLineText(message, nameOf, everyone, t) : message.content),
  };

  function closeSearch() {
    setSearchOpen(false);
    setQuery('');
  }

  function forwardSelection() {
    const ids = selection ?? [];
    const refusal = forwardRefusal(ids);
    if (refusal) {
      showToast(t(refusal), 'error');
      return;
    }
    setForwardIds(inChatOrder(ids, timeline));
  }

  async function runConfirmed(current: Confirm) {
    setConfirm(null);
    if (current.kind === 'clear') {
      await clearChat(peerId);
      setModes((all) => ({ ...all, [peerId]: undefined }));
      return;
    }
    const done = await deleteMessages(peerId, current.ids, current.kind === 'deleteForEveryone');
    if (done) setSelection(null);
  }

  function cancelConfirm(current: Confirm) {
    setConfirm(null);
    showToast(t(current.kind === 'clear' ? 'clear.cancelled' : 'delete.cancelled'));
  }

  const headerActions = (
    <>
      <button
        type="button"
        className="icon-button"
        aria-label={t('media.history')}
        title={t('media.history')}
        onClick={() => setMediaOpen(true)}
        data-testid="chat-media-history"
      >
        <ImageIcon />
      </button>
      <button
        type="button"
        className={`icon-button${searchOpen ? ' icon-button-active' : ''}`}
        aria-label={t('search.open')}
        aria-pressed={searchOpen}
        title={t('search.open')}
        onClick={() => (searchOpen ? closeSearch() : setSearchOpen(true))}
        data-testid="chat-search-toggle"
      >
        <SearchIcon />
      </button>
      {(
        <button
          ref={headerMenuButton}
          type="button"
          className="icon-button"
          aria-label={t('chat.menu')}
          aria-haspopup="menu"
          title={t('chat.menu')}
          onClick={() => {
            const box = headerMenuButton.current!.getBoundingClientRect();
            setHeaderMenu({ x: box.right - 200, y: box.bottom + 4 });
          }}
          data-testid="chat-menu"
        >
          <MoreIcon />
        </button>
      )}
    </>
  );

  return (
    <section className="chat" aria-label={title} data-testid="chat-view" data-peer-id={peerId} data-chat-type={chatType}>
      <PaneHeader
        title={title}
        subtitle={
          isGroup ? (
            t('group.memberCount', { n: group?.memberCount ?? 0 })
          ) : peer.code ? (
            `@${peer.code}`
          ) : undefined
        }
        leading={
          isGroup ? (
            <button
              type="button"
              className="header-avatar"
              aria-label={t('group.details')}
              onClick={() => setPane({ kind: 'group', groupId: peerId })}
              data-testid="chat-group-info"
            >
              <GroupAvatar group={{ id: peerId, name: group?.name ?? '', headUrl: group?.headUrl ?? '' }} size={36} />
            </button>
          ) : (
            <button
              type="button"
              className="header-avatar"
              aria-label={t('member.title')}
              onClick={() => setPane({ kind: 'member', memberId: peerId })}
              data-testid="chat-peer-info"
            >
              <Avatar
                name={peer.name}
                remark={peer.remark}
                headUrl={peer.headUrl}
                seed={peerId}
                size={36}
                levelCode={peer.memberLevelCode}
              />
            </button>
          )
        }
        actions={
          <>
            {isGroup ? null : <CallButtons peerId={peerId} />}
            {headerActions}
          </>
        }
      />
      {searchOpen ? (
        <div className="chat-search" role="search">
          <input
            className="text-input"
            type="search"
            value={query}
            autoFocus
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') closeSearch();
            }}
            placeholder={t('search.placeholder')}
            aria-label={t('search.placeholder')}
            data-testid="chat-search"
          />
          {searching ? (
            <span className="muted chat-search-count" data-testid="chat-search-count" aria-live="polite">
              {t('search.results', { n: shown.length })}
            </span>
          ) : null}
          {hasMore ? (
            <button
              type="button"
              className="button button-secondary"
              disabled={loadingMore}
              onClick={() => void history.setSize(history.size + 1)}
              data-testid="chat-search-older"
            >
              {loadingMore ? t('chat.loadingOlder') : t('search.older')}
            </button>
          ) : (
            <span className="muted chat-search-count">{t('search.allLoaded')}</span>
          )}
          <button type="button" className="icon-button" aria-label={t('search.close')} onClick={closeSearch}>
            <CloseIcon />
          </button>
        </div>
      ) : null}
      {isGroup && pinned && pinned.length > 0 ? (
        <PinnedBar
          pinned={pinned}
          canUnpin={mayPin(myRole)}
          text={(message) => mentions(previewText(message.msgType, message.content, t), true)}
          onJump={(id) => setJump({ id, nonce: Date.now() })}
          onUnpin={(message) => void togglePin('unpin', message)}
        />
      ) : null}
      <MessageList
        messages={shown}
        env={env}
        loading={history.isLoading}
        loadingMore={loadingMore}
        hasMore={hasMore}
        failed={history.error && !pages ? history.error.message || t('common.requestFailed') : null}
        onLoadMore={() => void history.setSize(history.size + 1)}
        onRetry={() => void mutate()}
        jumpTo={jump}
        unreadFrom={searching ? undefined : unreadFrom || undefined}
        onShowInChat={
          searching
            ? (message) => {
                closeSearch();
                setJump({ id: message.id, nonce: Date.now() });
              }
            : undefined
        }
        emptyNote={searching ? t('search.none') : undefined}
      />
      {selection ? (
        <div className="selection-bar" data-testid="selection-bar">
          <span data-testid="selection-count">{t('forward.selected', { n: selection.length })}</span>
          <button type="button" className="button button-secondary" onClick={() => setSelection(null)}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button button-secondary"
            disabled={selection.length === 0}
            onClick={() =>
              setConfirm({ kind: 'deleteForMe', ids: expandForwardBatches(timeline, selection) })
            }
            data-testid="selection-delete"
          >
            {t('menu.deleteForMe')}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={forwardSelection}
            data-testid="selection-forward"
          >
            {t('forward.send')}
          </button>
        </div>
      ) : refusal ? (
        <GroupMuteNotice refusal={refusal} muteLeft={muteLeft} />
      ) : (
        <Composer peerId={peerId} nameOf={nameOf} me={me.id} members={isGroup ? mentionable : undefined} />
      )}
      {menu ? (
        <PopupMenu
          x={menu.x}
          y={menu.y}
          label={t('menu.more')}
          onClose={() => setMenu(null)}
          items={actionsOf(menu.message).map((action) => ({
            key: action,
            label: t(ACTION_LABELS[action]),
            danger: action === 'deleteForMe' || action === 'deleteForEveryone' || action === 'recall',
            onSelect: () => onAction(action, menu.message),
          }))}
          testId="message-menu"
        />
      ) : null}
      {headerMenu ? (
        <PopupMenu
          x={headerMenu.x}
          y={headerMenu.y}
          label={t('chat.menu')}
          onClose={() => setHeaderMenu(null)}
          items={[{ key: 'clear', label: t('clear.action'), danger: true, onSelect: () => setConfirm({ kind: 'clear' }) }]}
          testId="chat-menu-list"
        />
      ) : null}
      {confirm ? (
        <ConfirmDialog
          title={
            confirm.kind === 'clear'
              ? t('clear.title')
              : t(confirm.kind === 'deleteForMe' ? 'delete.titleMe' : 'delete.titleEveryone')
          }
          body={
            confirm.kind === 'clear' ? (
              t('clear.body', { name: title })
            ) : (
              <>
                {t(confirm.kind === 'deleteForMe' ? 'delete.bodyMe' : 'delete.bodyEveryone')}
                {confirm.ids.length > 1 ? <> {t('delete.bodyBatch', { n: confirm.ids.length })}</> : null}
              </>
            )
          }
          confirmLabel={confirm.kind === 'clear' ? t('clear.confirm') : t('delete.confirm')}
          onConfirm={() => void runConfirmed(confirm)}
          onCancel={() => cancelConfirm(confirm)}
          testId="confirm-dialog"
        />
      ) : null}
      {readersOf ? <ReadersDialog groupId={peerId} messageId={readersOf} onClose={() => setReadersOf(null)} /> : null}
      {mediaOpen ? (
        <MediaHistory
          timeline={timeline}
          hasMore={hasMore}
          loadingMore={loadingMore}
          onLoadOlder={() => void history.setSize(history.size + 1)}
          onClose={() => setMediaOpen(false)}
        />
      ) : null}
      {forwardIds ? (
        <TargetPicker
          title={t('forward.title')}
          multiple
          max={FORWARD_TARGETS_MAX}
          groups
          confirmLabel={t('forward.send')}
          onClose={() => setForwardIds(null)}
          onConfirm={(targets) => {
            void forward(forwardIds, targets).then((done) => {
              setForwardIds(null);
              if (done) setSelection(null);
            });
          }}
          testId="forward-picker"
        />
      ) : null}
    </section>
  );
}
