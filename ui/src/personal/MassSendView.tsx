import { useAtomValue } from 'jotai';
import { useRef, useState } from 'react';
import useSWR from 'swr';
import { useFriendGroups } from '../api/hooks';
import { authAtom } from '../auth/authState';
import { clockTime } from '../chat/format';
import { newUuid } from '../chat/ids';
import { previewText } from '../chat/preview';
import { PaperclipIcon } from '../components/icons';
import { displayName } from '../home/SessionItem';
import { PaneHeader } from '../home/PaneHeader';
import { useT } from '../i18n';
import { showToast } from '../state/toast';
import { clearBatches, personalKeys, refreshAfter, sendBatch, type Batch, type BatchPage } from './api';
import { FriendPicker } from './FriendPicker';
import { MAX_RECIPIENTS, massRefusal, recipientsLabel } from './logic';
import { StickerPicker } from './StickerPicker';
import { uploadMedia, type UploadedMedia } from './uploadMedia';
import './personal.css';

/** Fixed entry 002, the group-send assistant: the member's mass messages and a form for a new one. */
export function MassSendView() {
  const t = useT();
  const auth = useAtomValue(authAtom);
  const batches = useSWR<BatchPage>(auth ? personalKeys.batches : null);
  const friends = (useFriendGroups().data ?? []).flatMap((group) => group.friends);
  const [composing, setComposing] = useState<string[] | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const nameOf = (id: string) => displayName(friends.find((f) => f.id === id) ?? { code: id });
  const records = batches.data?.records ?? [];

  const clear = async () => {
    setConfirmClear(false);
    try {
      const done = await clearBatches();
      showToast(t('mass.cleared'), 'success');
      await refreshAfter(personalKeys.batches, done.position);
    } catch {
      // shown by the request layer
    }
  };

  if (composing) {
    return (
      <section className="pane-section personal" aria-label={t('fixed.002')} data-testid="mass-view">
        <PaneHeader title={t('mass.new')} />
        <MassForm initial={composing} onDone={() => setComposing(null)} />
      </section>
    );
  }
  return (
    <section className="pane-section personal" aria-label={t('fixed.002')} data-testid="mass-view">
      <PaneHeader title={t('fixed.002')} />
      <div className="personal-toolbar">
        <button type="button" className="button button-primary" onClick={() => setComposing([])} data-testid="mass-new">
          {t('mass.new')}
        </button>
        {records.length > 0 ? (
          confirmClear ? (
            <>
              <button type="button" className="button button-primary" onClick={() => void clear()} data-testid="mass-clear-confirm">
                {t('mass.clear')}
              </button>
              <button type="button" className="button button-secondary" onClick={() => setConfirmClear(false)}>
                {t('fav.cancel')}
              </button>
            </>
          ) : (
            <button type="button" className="button button-secondary" onClick={() => setConfirmClear(true)} data-testid="mass-clear">
              {t('mass.clear')}
            </button>
          )
        ) : null}
      </div>
      <div className="personal-body">
        {batches.data && records.length === 0 ? (
          <p className="list-note" data-testid="mass-empty">
            {t('mass.empty')}
          </p>
        ) : null}
        <ul className="personal-list" data-testid="mass-list">
          {records.map((batch) => (
            <BatchItem key={batch.id} batch={batch} nameOf={nameOf} onAgain={() => setComposing(batch.recipients)} />
          ))}
        </ul>
      </div>
    </section>
  );
}

function BatchItem({ batch, nameOf, onAgain }: { batch: Batch; nameOf: (id: string) => string; onAgain: () => void }) {
  const t = useT();
  return (
    <li className="personal-item" data-testid="mass-batch" data-batch-id={batch.id}>
      <div className="personal-main">
        <div className="personal-meta">
          <span>{t('mass.recipientsCount', { n: batch.recipients.length })}</span>
          <time>{clockTime(batch.createTime)}</time>
        </div>
        <p className="personal-to">{t('mass.to', { names: recipientsLabel(batch.recipients, nameOf) })}</p>
        <p className="personal-content" data-testid="mass-batch-content">
          {previewText(batch.msgType, batch.content, t)}
        </p>
      </div>
      <button type="button" className="button button-secondary" onClick={onAgain} data-testid="mass-again">
        {t('mass.another')}
      </button>
    </li>
  );
}

function MassForm({ initial, onDone }: { initial: string[]; onDone: () => void }) {
  const t = useT();
  const auth = useAtomValue(authAtom);
  const friends = (useFriendGroups().data ?? []).flatMap((group) => group.friends);
  const [recipients, setRecipients] = useState<string[]>(initial);
  const [text, setText] = useState('');
  const [attachment, setAttachment] = useState<UploadedMedia | null>(null);
  const [stickers, setStickers] = useState(false);
  const [busy, setBusy] = useState(false);
  const [uuid, setUuid] = useState(newUuid);
  const input = useRef<HTMLInputElement | null>(null);
  const disabled = auth?.user.sendBatchMessage === 'Disable';

  const send = async () => {
    const refusal = massRefusal(recipients, text, attachment !== null);
    if (refusal) {
      showToast(t(refusal), 'error');
      return;
    }
    setBusy(true);
    try {
      const result = await sendBatch({
        uuid,
        recipients,
        msgType: attachment ? attachment.msgType : 'Text',
        content: attachment ? attachment.content : text,
      });
      showToast(t('mass.sent', { n: result.messages.length }), 'success');
      await refreshAfter(personalKeys.batches, result.position);
      setUuid(newUuid());
      onDone();
    } catch {
      setBusy(false);
    }
  };
  const attach = async (file: File) => {
    setBusy(true);
    const uploaded = await uploadMedia(file);
    if (uploaded) setAttachment(uploaded);
    setBusy(false);
  };

  return (
    <div className="personal-body mass-form" data-testid="mass-form">
      {disabled ? <p className="list-note" role="alert">{t('mass.disabled')}</p> : null}
      <h2 className="list-heading">
        {t('mass.recipients')} <span className="muted">{t('mass.selectedOf', { n: recipients.length })}</span>
      </h2>
      {friends.length === 0 ? <p className="list-note">{t('mass.noFriends')}</p> : null}
      <FriendPicker
        friends={friends}
        selected={recipients}
        onChange={setRecipients}
        max={MAX_RECIPIENTS}
        tooMany="mass.tooMany"
        testId="mass-picker"
      />
      <h2 className="list-heading">{t('mass.message')}</h2>
      {attachment ? (
        <div className="mass-attachment" data-testid="mass-attachment">
          <span>{attachment.msgType === 'Picture' ? t('preview.Picture') : attachment.fileName}</span>
          <button type="button" className="button button-secondary" onClick={() => setAttachment(null)}>
            {t('mass.removeAttachment')}
          </button>
        </div>
      ) : (
        <textarea
          className="mass-text"
          rows={4}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-label={t('mass.message')}
          data-testid="mass-text"
        />
      )}
      <div className="personal-toolbar">
        <button
          type="button"
          className="icon-button"
          aria-label={t('mass.attach')}
          title={t('mass.attach')}
          disabled={busy}
          onClick={() => input.current?.click()}
          data-testid="mass-attach"
        >
          <PaperclipIcon />
        </button>
        <input
          ref={input}
          type="file"
          hidden
          data-testid="mass-attach-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void attach(file);
          }}
        />
        <button type="button" className="button button-secondary" onClick={() => setStickers(!stickers)} data-testid="mass-stickers">
          {t('sticker.title')}
        </button>
        <span className="personal-spacer" />
        <button type="button" className="button button-secondary" onClick={onDone}>
          {t('fav.cancel')}
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={busy || disabled}
          onClick={() => void send()}
          data-testid="mass-send"
        >
          {t('mass.send')}
        </button>
      </div>
      {stickers ? (
        <StickerPicker
          onPick={(sticker) => {
            setAttachment({ msgType: 'Picture', content: sticker.content, filePath: sticker.filePath, fileName: '' });
            setStickers(false);
          }}
        />
      ) : null}
    </div>
  );
}
