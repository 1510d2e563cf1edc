import { useAtom } from 'jotai';
import { useLayoutEffect, useRef, useState } from 'react';
import { saveEdit, shareCard } from '../chat/actions';
import { previewText } from '../chat/preview';
import { sendContent, sendText } from '../chat/send';
import { MENTION_ALL_ID, encodeMentions, insertMention, mentionCandidates, mentionQuery, type Mention } from '../groups/chatLogic';
import { Avatar } from '../components/Avatar';
import { CloseIcon, ContactsIcon, EditIcon, PlusIcon, ReplyIcon, SendIcon } from '../components/icons';
import { PopupMenu } from '../components/PopupMenu';
import { useT } from '../i18n';
import { composerModeAtom, draftsAtom, type ComposerMode } from '../state/chat';
import { showToast } from '../state/toast';
import { Attach } from './Attach';
import { StickerPicker, sendSticker } from '../personal/StickerPicker';
import { TargetPicker } from './TargetPicker';

const MAX_HEIGHT_PX = 160;

/**
 * Enter sends, Shift+Enter adds a line; the text is kept per conversation until sent. Above it a
 * quoted message while replying (× cancels), or the edit bar while editing one's own message
 * (Escape cancels). The + menu sends a contact card.
 */
export function Composer({
  peerId,
  nameOf,
  me,
  members,
}: {
  peerId: string;
  /** the sender of a quoted message */
  nameOf: (memberId: string) => string;
  me: string;
  /** a group chat's members: typing '@' offers them (and everyone) to mention */
  members?: Mention[];
}) {
  const t = useT();
  const [drafts, setDrafts] = useAtom(draftsAtom);
  const [modes, setModes] = useAtom(composerModeAtom);
  const mode = modes[peerId];
  const editing = mode?.kind === 'edit';
  const value = editing ? mode.text : (drafts[peerId] ?? '');
  const input = useRef<HTMLTextAreaElement>(null);
  const plusButton = useRef<HTMLButtonElement>(null);
  const [plusMenu, setPlusMenu] = useState<{ x: number; y: number } | null>(null);
  const [sharing, setSharing] = useState(false);
  const [stickers, setStickers] = useState(false);
  const [saving, setSaving] = useState(false);
  const [caret, setCaret] = useState(0);
  const [picked, setPicked] = useState<Mention[]>([]);
  const mention = members && !editing ? mentionQuery(value, caret) : null;
  const candidates = mention && members ? mentionCandidates(members, me, mention.query, t('gchat.everyone')) : [];

  function pickMention(target: Mention) {
    const next = insertMention(value, caret, target.name);
    setValue(next.text);
    setPicked((all) => [...all.filter((item) => item.id !== target.id), target]);
    setCaret(next.caret);
    requestAnimationFrame(() => {
      input.current?.focus();
      input.current?.setSelectionRange(next.caret, next.caret);
    });
  }

  useLayoutEffect(() => {
    const element = input.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [value]);

  const modeKey = mode ? `${mode.kind}:${mode.message.uuid || mode.message.id}` : '';
  useLayoutEffect(() => {
    if (modeKey) input.current?.focus();
  }, [modeKey]);

  function setMode(next: ComposerMode | undefined) {
    setModes((all) => ({ ...all, [peerId]: next }));
  }

  function setValue(text: string) {
    if (mode?.kind === 'edit') setMode({ ...mode, text });
    else setDrafts((all) => ({ ...all, [peerId]: text }));
  }

  async function submit() {
    const content = value.trim();
    if (mode?.kind === 'edit') {
      if (!content) {
        showToast(t('edit.empty'), 'error');
        return;
      }
      setSaving(true);
      const saved = content === mode.message.content || (await saveEdit(peerId, mode.message, content));
      setSaving(false);
      if (saved) setMode(undefined);
      input.current?.focus();
      return;
    }
    if (!content) return;
    const encoded = members ? encodeMentions(content, picked) : { content, at: false };
    if (encoded.at && mode?.kind !== 'reply') sendContent(peerId, 'AtText', encoded.content);
    else sendText(peerId, content, mode?.kind === 'reply' ? mode.message : undefined);
    setPicked([]);
    setDrafts((all) => ({ ...all, [peerId]: '' }));
    setMode(undefined);
    input.current?.focus();
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Escape' && mode) {
      event.preventDefault();
      setMode(undefined);
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (candidates.length > 0) pickMention(candidates[0]!);
    else void submit();
  }

  let bar: React.ReactNode = null;
  if (mode) {
    const quoted = mode.message;
    const who = quoted.from === me ? t('message.you') : nameOf(quoted.from);
    bar = (
      <div className={`composer-bar composer-${mode.kind}`} data-testid={`composer-${mode.kind}`}>
        {mode.kind === 'reply' ? <ReplyIcon /> : <EditIcon />}
        <div className="composer-bar-text">
          <strong>{mode.kind === 'reply' ? t('composer.replyingTo', { name: who }) : t('composer.editing')}</strong>
          <span>{previewText(quoted.msgType === 'Forward' ? (quoted.forwardType ?? 'Text') : quoted.msgType, quoted.content, t)}</span>
        </div>
        <button
          type="button"
          className="icon-button"
          onClick={() => {
            setMode(undefined);
            input.current?.focus();
          }}
          aria-label={mode.kind === 'reply' ? t('composer.cancelReply') : t('composer.cancelEdit')}
          data-testid="composer-cancel"
        >
          <CloseIcon />
        </button>
      </div>
    );
  }

  return (
    <div className="composer-wrap">
      {bar}
      {candidates.length > 0 ? (
        <ul className="mention-picker" role="listbox" aria-label={t('gchat.mentionTitle')} data-testid="mention-picker">
          {candidates.map((candidate) => (
            <li key={candidate.id}>
              <button
                type="button"
                role="option"
                aria-selected={false}
                className="mention-option"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pickMention(candidate)}
                data-testid="mention-option"
                data-member-id={candidate.id}
              >
                {candidate.id === MENTION_ALL_ID ? (
                  <Avatar icon={<ContactsIcon />} tone="var(--primary)" size={28} />
                ) : (
                  <Avatar name={candidate.name} headUrl={candidate.headUrl} seed={candidate.id} size={28} />
                )}
                <span>@{candidate.name}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form
        className="composer"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <button
          ref={plusButton}
          type="button"
          className="icon-button composer-plus"
          aria-label={t('composer.more')}
          aria-haspopup="menu"
          onClick={() => {
            const box = plusButton.current!.getBoundingClientRect();
            setPlusMenu({ x: box.left, y: box.top - 60 });
          }}
          data-testid="composer-plus"
        >
          <PlusIcon />
        </button>
        <Attach peerId={peerId} />
        <textarea
          ref={input}
          rows={1}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setCaret(event.target.selectionStart ?? event.target.value.length);
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart ?? 0)}
          onKeyDown={onKeyDown}
          placeholder={t('chat.placeholder')}
          aria-label={t('chat.placeholder')}
          title={t('chat.hint')}
          data-testid="composer"
          maxLength={5000}
        />
        <button
          type="submit"
          className="button button-primary send-button"
          disabled={!value.trim() || saving}
          aria-label={editing ? t('composer.save') : t('chat.send')}
          data-testid="send-button"
        >
          <SendIcon />
          <span>{editing ? t('composer.save') : t('chat.send')}</span>
        </button>
      </form>
      {plusMenu ? (
        <PopupMenu
          x={plusMenu.x}
          y={plusMenu.y}
          label={t('composer.more')}
          onClose={() => setPlusMenu(null)}
          items={[
            { key: 'shareContact', label: t('composer.shareContact'), onSelect: () => setSharing(true) },
            { key: 'stickers', label: t('sticker.title'), onSelect: () => setStickers(true) },
          ]}
          testId="composer-menu"
        />
      ) : null}
      {stickers ? (
        <div className="composer-stickers" data-testid="composer-stickers">
          <button type="button" className="icon-button" aria-label={t('common.cancel')} onClick={() => setStickers(false)}>
            <CloseIcon />
          </button>
          <StickerPicker
            onPick={(sticker) => {
              sendSticker(peerId, sticker);
              setStickers(false);
            }}
          />
        </div>
      ) : null}
      {sharing ? (
        <TargetPicker
          title={t('share.title')}
          multiple={false}
          confirmLabel={t('share.send')}
          exclude={[peerId]}
          onClose={() => setSharing(false)}
          onConfirm={(ids) => {
            void shareCard(peerId, ids[0]).finally(() => setSharing(false));
          }}
          testId="share-picker"
        />
      ) : null}
    </div>
  );
}
