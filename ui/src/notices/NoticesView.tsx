import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { useFriendApplies } from '../api/hooks';
import { authAtom } from '../auth/authState';
import { clockTime } from '../chat/format';
import { Avatar } from '../components/Avatar';
import { BellIcon } from '../components/icons';
import { ConfirmDialog } from '../components/Dialog';
import { CountBadge } from '../home/CountBadge';
import { PaneHeader } from '../home/PaneHeader';
import { useT } from '../i18n';
import { showToast } from '../state/toast';
import { paneAtom } from '../state/ui';
import { deleteNotices, noticeKeys, readAllNotices, readNotice, refreshNotices, type Notice, type NoticePage } from './api';
import { NOTICE_TABS, deleteRefusal, noticeTarget, tabLabel, toggleNotice, unreadIn, type NoticeTab } from './logic';
import { useNoticeCounts } from './state';
import '../personal/personal.css';

/** Fixed entry 003: system notices by tab, read one or all, delete a batch; counts live by push 44. */
export function NoticesView() {
  const t = useT();
  const auth = useAtomValue(authAtom);
  const [tab, setTab] = useState<NoticeTab>('all');
  const key = noticeKeys.list(tab);
  const list = useSWR<NoticePage>(auth ? key : null);
  const counts = useNoticeCounts();
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const records = list.data?.records ?? [];

  const stopSelecting = () => {
    setSelecting(false);
    setSelected([]);
  };
  const readAll = async () => {
    try {
      const done = await readAllNotices();
      await refreshNotices(key, done.position);
    } catch {
      // shown by the request layer
    }
  };
  const askDelete = () => {
    const refusal = deleteRefusal(selected);
    if (refusal) showToast(t(refusal), 'error');
    else setConfirming(true);
  };
  const remove = async () => {
    setConfirming(false);
    try {
      const done = await deleteNotices(selected);
      showToast(t('notice.deleted'), 'success');
      stopSelecting();
      await refreshNotices(key, done.position);
    } catch {
      // shown by the request layer
    }
  };

  return (
    <section className="pane-section personal" aria-label={t('fixed.003')} data-testid="notices-view">
      <PaneHeader title={t('fixed.003')} subtitle={selecting ? t('notice.selected', { n: selected.length }) : undefined} />
      <div className="tabs" role="tablist">
        {NOTICE_TABS.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            className={tab === id ? 'tab tab-active' : 'tab'}
            onClick={() => {
              setTab(id);
              stopSelecting();
            }}
            data-testid={`notice-tab-${id}`}
          >
            {t(tabLabel(id))}
            <CountBadge count={unreadIn(id, counts)} label={t('notice.unreadCount', { n: unreadIn(id, counts) })} testId={`notice-tab-badge-${id}`} />
          </button>
        ))}
      </div>
      <div className="personal-toolbar" data-testid="notice-toolbar">
        {selecting ? (
          <>
            <button type="button" className="button button-danger" onClick={askDelete} data-testid="notice-delete-selected">
              {t('notice.delete')}
            </button>
            <button type="button" className="button button-secondary" onClick={stopSelecting}>
              {t('notice.cancel')}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="button button-secondary" onClick={() => void readAll()} disabled={counts.total === 0} data-testid="notice-read-all">
              {t('notice.readAll')}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setSelecting(true)} disabled={records.length === 0} data-testid="notice-select">
              {t('notice.select')}
            </button>
          </>
        )}
      </div>
      <div className="personal-body">
        {list.data && records.length === 0 ? (
          <div className="empty-state empty-state-center" data-testid="notices-empty">
            <Avatar icon={<BellIcon />} tone="#4f7cff" size={56} />
            <p className="muted">{t('notice.empty')}</p>
          </div>
        ) : null}
        <ul className="personal-list" data-testid="notice-list">
          {records.map((notice) => (
            <NoticeItem
              key={notice.id}
              notice={notice}
              listKey={key}
              selecting={selecting}
              checked={selected.includes(notice.id)}
              onCheck={() => {
                const next = toggleNotice(selected, notice.id);
                if (next.refused) showToast(t(next.refused), 'error');
                setSelected(next.selected);
              }}
            />
          ))}
        </ul>
      </div>
      {confirming ? (
        <ConfirmDialog
          title={t('notice.confirmDelete', { n: selected.length })}
          confirmLabel={t('notice.delete')}
          onConfirm={() => void remove()}
          onCancel={() => {
            setConfirming(false);
            showToast(t('notice.deletionCancelled'), 'info');
          }}
          testId="notice-confirm"
        />
      ) : null}
    </section>
  );
}

function NoticeItem({
  notice,
  listKey,
  selecting,
  checked,
  onCheck,
}: {
  notice: Notice;
  listKey: string;
  selecting: boolean;
  checked: boolean;
  onCheck: () => void;
}) {
  const t = useT();
  const setPane = useSetAtom(paneAtom);
  const unread = notice.readFlag === 'Unread';
  const markRead = async () => {
    try {
      const done = await readNotice(notice.id);
      await refreshNotices(listKey, done.position);
    } catch {
      // shown by the request layer
    }
  };
  const target = noticeTarget(notice);
  const applies = useFriendApplies();
  const answer =
    notice.command === 'FriendRequest'
      ? applies.data?.records.find((apply) => apply.id === notice.contentId && apply.status !== 'pending')?.status
      : undefined;
  useEffect(() => {
    if (answer && unread) void markRead();
  }, [answer, unread]);
  const openRequests = () => {
    if (unread) void markRead();
    setPane({ kind: 'requests' });
  };
  return (
    <li
      className={unread ? 'personal-item notice-item notice-unread' : 'personal-item notice-item'}
      data-testid="notice"
      data-notice-id={notice.id}
      data-read-flag={notice.readFlag}
      data-command={notice.command}
    >
      {selecting ? (
        <input type="checkbox" className="personal-check" checked={checked} onChange={onCheck} aria-label={t('notice.select')} data-testid="notice-check" />
      ) : null}
      <Avatar name={notice.fromName} headUrl={notice.fromHead || undefined} seed={notice.fromId} size={36} />
      <div className="personal-main">
        <div className="personal-meta">
          {unread ? <span className="notice-dot" aria-label={t('notice.unread')} /> : null}
          <span>{t(tabLabel(notice.tab))}</span>
          <time>{clockTime(notice.createTime)}</time>
        </div>
        <p className="personal-content" data-testid="notice-content">
          {notice.content}
        </p>
        {notice.command === 'Verification' && notice.code ? (
          <p className="notice-verification" data-testid="notice-verification">
            <strong className="notice-code" data-testid="notice-code">
              {notice.code}
            </strong>{' '}
            <span className="muted">
              {t('notice.validFor', { n: notice.validMinutes ?? 0 })} · {t('notice.newDevice', { system: notice.system ?? '' })}
            </span>
          </p>
        ) : null}
        {notice.message ? (
          <p className="muted personal-to" data-testid="notice-message">
            {notice.command === 'FeedbackReply' ? `${t('notice.reply')}: ${notice.message}` : notice.message}
          </p>
        ) : null}
        {notice.command === 'GroupJoinRequest' && notice.status ? (
          <p className="muted" data-testid="notice-status" data-status={notice.status}>
            {t(`notice.status.${notice.status}`)}
          </p>
        ) : null}
      </div>
      {!selecting ? (
        <div className="notice-actions">
          {answer ? (
            <span className={answer === 'accepted' ? 'pill pill-done' : 'pill'} data-testid="notice-answer" data-status={answer}>
              {t(answer === 'accepted' ? 'requests.accepted' : 'requests.rejected')}
            </span>
          ) : target === 'requests' ? (
            <button type="button" className="button button-secondary" onClick={openRequests} data-testid="notice-open-requests">
              {t('notice.openRequests')}
            </button>
          ) : null}
          {target === 'groupRequests' && notice.groupId ? (
            <button
              type="button"
              className="button button-secondary"
              onClick={() => setPane({ kind: 'group', groupId: notice.groupId as string })}
              data-testid="notice-open-group-requests"
            >
              {t('notice.openGroupRequests')}
            </button>
          ) : null}
          {unread ? (
            <button type="button" className="button button-secondary" onClick={() => void markRead()} data-testid="notice-read">
              {t('notice.read')}
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
