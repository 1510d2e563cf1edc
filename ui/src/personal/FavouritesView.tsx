import { useAtomValue } from 'jotai';
import { useState } from 'react';
import useSWR from 'swr';
import { useFriendGroups } from '../api/hooks';
import type { Friend } from '../api/types';
import { authAtom } from '../auth/authState';
import { clockTime } from '../chat/format';
import { newUuid } from '../chat/ids';
import { previewText } from '../chat/preview';
import { MEDIA_TYPES, mediaUrl, parseMediaContent } from '../chat/upload';
import { Avatar } from '../components/Avatar';
import { StarIcon } from '../components/icons';
import { displayName } from '../home/SessionItem';
import { MediaView } from '../home/MediaView';
import { PaneHeader } from '../home/PaneHeader';
import { useT, type MessageKey } from '../i18n';
import { showToast } from '../state/toast';
import {
  buildSticker,
  deleteFavourites,
  editFavourite,
  forwardFavourites,
  personalKeys,
  refreshAfter,
  type Favourite,
  type FavouritePage,
} from './api';
import { FriendPicker } from './FriendPicker';
import { MAX_FORWARD_RECORDS, favouriteActions, forwardRefusal, toggle, type FavouriteAction } from './logic';
import './personal.css';

const actionLabels: Record<FavouriteAction, MessageKey> = {
  forward: 'fav.forward',
  select: 'fav.multiForward',
  copy: 'fav.copy',
  download: 'fav.download',
  addSticker: 'fav.addSticker',
  edit: 'fav.edit',
  delete: 'fav.delete',
};

/** Fixed entry 001: the member's favourites, with forward, multi-forward, copy, download, sticker, edit, delete. */
export function FavouritesView() {
  const t = useT();
  const auth = useAtomValue(authAtom);
  const favourites = useSWR<FavouritePage>(auth ? personalKeys.favourites : null);
  const friends = (useFriendGroups().data ?? []).flatMap((group) => group.friends);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [forwarding, setForwarding] = useState<string[] | null>(null);

  const nameOf = (id: string) =>
    id === auth?.user.id ? auth.user.name : displayName(friends.find((f) => f.id === id) ?? { code: id });
  const records = favourites.data?.records ?? [];

  const startForward = (ids: string[]) => {
    const refusal = forwardRefusal(ids, ['-']);
    if (refusal) showToast(t(refusal), 'error');
    else setForwarding(ids);
  };

  return (
    <section className="pane-section personal" aria-label={t('fixed.001')} data-testid="favourites-view">
      <PaneHeader title={t('fixed.001')} subtitle={selecting ? t('fav.selected', { n: selected.length }) : undefined} />
      {selecting ? (
        <div className="personal-toolbar" data-testid="fav-select-bar">
          <button type="button" className="button button-primary" onClick={() => startForward(selected)} data-testid="fav-forward-selected">
            {t('fav.forward')}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setSelecting(false);
              setSelected([]);
            }}
          >
            {t('fav.cancel')}
          </button>
        </div>
      ) : null}
      <div className="personal-body">
        {favourites.data && records.length === 0 ? (
          <div className="empty-state empty-state-center" data-testid="fixed-empty">
            <Avatar icon={<StarIcon />} tone="#f0a020" size={56} />
            <p className="muted">{t('fav.empty')}</p>
          </div>
        ) : null}
        <ul className="personal-list" data-testid="fav-list">
          {records.map((favourite) => (
            <FavouriteItem
              key={favourite.id}
              favourite={favourite}
              senderName={nameOf(favourite.from)}
              selecting={selecting}
              checked={selected.includes(favourite.id)}
              onCheck={() => {
                const next = toggle(selected, favourite.id, MAX_FORWARD_RECORDS, 'fav.tooMany');
                if (next.refused) showToast(t(next.refused), 'error');
                setSelected(next.selected);
              }}
              onAction={(action) => {
                if (action === 'forward') startForward([favourite.id]);
                if (action === 'select') {
                  setSelecting(true);
                  setSelected([favourite.id]);
                }
              }}
            />
          ))}
        </ul>
      </div>
      {forwarding ? (
        <ForwardDialog
          ids={forwarding}
          friends={friends}
          onClose={(sent) => {
            setForwarding(null);
            if (sent) {
              setSelecting(false);
              setSelected([]);
            }
          }}
        />
      ) : null}
    </section>
  );
}

function FavouriteItem({
  favourite,
  senderName,
  selecting,
  checked,
  onCheck,
  onAction,
}: {
  favourite: Favourite;
  senderName: string;
  selecting: boolean;
  checked: boolean;
  onCheck: () => void;
  onAction: (action: 'forward' | 'select') => void;
}) {
  const t = useT();
  const token = useAtomValue(authAtom)?.token ?? '';
  const [menu, setMenu] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const media = MEDIA_TYPES.includes(favourite.msgType) ? parseMediaContent(favourite.content) : null;

  const run = async (action: FavouriteAction) => {
    setMenu(false);
    try {
      switch (action) {
        case 'forward':
        case 'select':
          onAction(action);
          return;
        case 'copy':
          await navigator.clipboard.writeText(favourite.content);
          showToast(t('fav.copied'), 'success');
          return;
        case 'download': {
          const url = media ? mediaUrl(media.filePath, token) : null;
          if (!url || !media) return;
          const link = document.createElement('a');
          link.href = url;
          link.download = media.fileName;
          link.click();
          return;
        }
        case 'addSticker': {
          const kept = await buildSticker({ favoriteId: favourite.id });
          showToast(t('fav.stickerAdded'), 'success');
          await refreshAfter(personalKeys.stickers, kept.position);
          return;
        }
        case 'edit':
          setEditing(favourite.content);
          return;
        case 'delete':
          setConfirming(true);
          return;
      }
    } catch {
      // refusals are shown by the request layer
    }
  };
  const save = async () => {
    if (editing === null) return;
    try {
      const done = await editFavourite(favourite.id, editing);
      setEditing(null);
      await refreshAfter(personalKeys.favourites, done.position);
    } catch {
      // shown by the request layer
    }
  };
  const remove = async () => {
    setConfirming(false);
    try {
      const done = await deleteFavourites([favourite.id]);
      showToast(t('fav.deleted'), 'success');
      await refreshAfter(personalKeys.favourites, done.position);
    } catch {
      // shown by the request layer
    }
  };

  return (
    <li className="personal-item" data-testid="favourite" data-favourite-id={favourite.id} data-msg-type={favourite.msgType}>
      {selecting ? (
        <input
          type="checkbox"
          className="personal-check"
          checked={checked}
          onChange={onCheck}
          aria-label={t('fav.multiForward')}
          data-testid="fav-check"
        />
      ) : null}
      <div className="personal-main">
        <div className="personal-meta">
          <span>{t('fav.from', { name: senderName })}</span>
          <time>{clockTime(favourite.sendTime || favourite.createTime)}</time>
          {favourite.editTime ? <span className="muted">{t('fav.edited')}</span> : null}
        </div>
        {editing !== null ? (
          <div className="personal-edit">
            <textarea value={editing} onChange={(event) => setEditing(event.target.value)} data-testid="fav-edit-text" rows={3} />
            <button type="button" className="button button-primary" onClick={() => void save()} data-testid="fav-edit-save">
              {t('fav.save')}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setEditing(null)}>
              {t('fav.cancel')}
            </button>
          </div>
        ) : media ? (
          <div className="personal-content">
            <MediaView msgType={favourite.msgType} media={media} />
          </div>
        ) : (
          <p className="personal-content" data-testid="fav-content">
            {previewText(favourite.msgType, favourite.content, t)}
          </p>
        )}
        {confirming ? (
          <div className="personal-confirm" role="alertdialog" aria-label={t('fav.confirmDelete')}>
            <span>{t('fav.confirmDelete')}</span>
            <button type="button" className="button button-primary" onClick={() => void remove()} data-testid="fav-delete-confirm">
              {t('fav.delete')}
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                setConfirming(false);
                showToast(t('fav.deletionCancelled'), 'info');
              }}
            >
              {t('fav.cancel')}
            </button>
          </div>
        ) : null}
      </div>
      {!selecting ? (
        <div className="personal-menu">
          <button
            type="button"
            className="icon-button"
            aria-haspopup="menu"
            aria-expanded={menu}
            aria-label={t('fav.menu')}
            onClick={() => setMenu(!menu)}
            data-testid="fav-menu"
          >
            ⋯
          </button>
          {menu ? (
            <ul className="personal-menu-list" role="menu">
              {favouriteActions(favourite).map((action) => (
                <li key={action} role="none">
                  <button type="button" role="menuitem" onClick={() => void run(action)} data-testid={`fav-action-${action}`}>
                    {t(actionLabels[action])}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function ForwardDialog({
  ids,
  friends,
  onClose,
}: {
  ids: string[];
  friends: Friend[];
  onClose: (sent: boolean) => void;
}) {
  const t = useT();
  const [targets, setTargets] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [uuid] = useState(newUuid);
  const send = async () => {
    const refusal = forwardRefusal(ids, targets);
    if (refusal) {
      showToast(t(refusal), 'error');
      return;
    }
    setBusy(true);
    try {
      await forwardFavourites(uuid, ids, targets);
      showToast(t('fav.forwarded'), 'success');
      onClose(true);
    } catch {
      setBusy(false);
    }
  };
  return (
    <div className="modal-backdrop" role="dialog" aria-modal="true" aria-label={t('fav.forwardTo')} data-testid="fav-forward-dialog">
      <div className="modal">
        <h2>{t('fav.forwardTo')}</h2>
        <p className="muted">{t('fav.selected', { n: ids.length })}</p>
        <FriendPicker
          friends={friends}
          selected={targets}
          onChange={setTargets}
          max={100}
          tooMany="mass.tooMany"
          testId="fav-forward-picker"
        />
        <div className="modal-actions">
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void send()} data-testid="fav-forward-send">
            {t('fav.forwardSend')}
          </button>
          <button type="button" className="button button-secondary" onClick={() => onClose(false)}>
            {t('fav.cancel')}
          </button>
        </div>
      </div>
    </div>
  );
}
