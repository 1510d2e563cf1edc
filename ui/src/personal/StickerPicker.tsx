import { useAtomValue } from 'jotai';
import { useRef, useState } from 'react';
import useSWR from 'swr';
import { authAtom } from '../auth/authState';
import { sendContent } from '../chat/send';
import { mediaUrl } from '../chat/upload';
import { useT } from '../i18n';
import { buildSticker, deleteStickers, personalKeys, refreshAfter, type Sticker, type StickerPage } from './api';
import { uploadMedia } from './uploadMedia';
import './personal.css';

/** Sends a sticker to a friend as a Picture message. */
export function sendSticker(peerId: string, sticker: Pick<Sticker, 'content'>): void {
  sendContent(peerId, 'Picture', sticker.content);
}

/**
 * The member's stickers: pick one (onPick gets it; the composer passes
 * `(s) => sendSticker(peerId, s)`), add an uploaded picture, delete one. The list follows push 43.
 */
export function StickerPicker({ onPick }: { onPick: (sticker: Sticker) => void }) {
  const t = useT();
  const token = useAtomValue(authAtom)?.token ?? '';
  const stickers = useSWR<StickerPage>(token ? personalKeys.stickers : null);
  const input = useRef<HTMLInputElement | null>(null);
  const [busy, setBusy] = useState(false);

  const add = async (file: File) => {
    setBusy(true);
    try {
      const uploaded = await uploadMedia(file);
      if (!uploaded) return;
      const kept = await buildSticker({ filePath: uploaded.filePath, width: uploaded.width, height: uploaded.height });
      await refreshAfter(personalKeys.stickers, kept.position);
    } catch {
      // the request layer has shown the refusal
    } finally {
      setBusy(false);
    }
  };
  const remove = async (id: string) => {
    try {
      const done = await deleteStickers([id]);
      await refreshAfter(personalKeys.stickers, done.position);
    } catch {
      // shown by the request layer
    }
  };

  const records = stickers.data?.records ?? [];
  return (
    <div className="sticker-picker" role="group" aria-label={t('sticker.title')} data-testid="sticker-picker">
      <ul className="sticker-grid">
        {records.map((sticker) => (
          <li key={sticker.id} className="sticker-cell" data-testid="sticker" data-sticker-id={sticker.id}>
            <button type="button" className="sticker-pick" onClick={() => onPick(sticker)} aria-label={t('sticker.send')}>
              <img src={mediaUrl(sticker.filePath, token) ?? ''} alt="" loading="lazy" />
            </button>
            <button
              type="button"
              className="sticker-delete"
              onClick={() => void remove(sticker.id)}
              aria-label={t('sticker.delete')}
              title={t('sticker.delete')}
              data-testid="sticker-delete"
            >
              ×
            </button>
          </li>
        ))}
        <li className="sticker-cell">
          <button
            type="button"
            className="sticker-pick sticker-add"
            disabled={busy}
            onClick={() => input.current?.click()}
            aria-label={t('sticker.add')}
            title={t('sticker.add')}
            data-testid="sticker-add"
          >
            +
          </button>
          <input
            ref={input}
            type="file"
            hidden
            accept="image/*"
            data-testid="sticker-add-input"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void add(file);
            }}
          />
        </li>
      </ul>
      {stickers.data && records.length === 0 ? <p className="list-note">{t('sticker.empty')}</p> : null}
    </div>
  );
}
