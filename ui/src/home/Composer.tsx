import { useAtom } from 'jotai';
import { useLayoutEffect, useRef } from 'react';
import { sendText } from '../chat/send';
import { SendIcon } from '../components/icons';
import { useT } from '../i18n';
import { draftsAtom } from '../state/chat';
import { Attach } from './Attach';

const MAX_HEIGHT_PX = 160;

/** Enter sends, Shift+Enter adds a line; the text is kept per conversation until sent. */
export function Composer({ peerId }: { peerId: string }) {
  const t = useT();
  const [drafts, setDrafts] = useAtom(draftsAtom);
  const draft = drafts[peerId] ?? '';
  const input = useRef<HTMLTextAreaElement>(null);

  useLayoutEffect(() => {
    const element = input.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [draft]);

  function setDraft(value: string) {
    setDrafts((all) => ({ ...all, [peerId]: value }));
  }

  function send() {
    const content = draft.trim();
    if (!content) return;
    sendText(peerId, content);
    setDraft('');
    input.current?.focus();
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  }

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <Attach peerId={peerId} />
      <textarea
        ref={input}
        rows={1}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
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
        disabled={!draft.trim()}
        aria-label={t('chat.send')}
        data-testid="send-button"
      >
        <SendIcon />
        <span>{t('chat.send')}</span>
      </button>
    </form>
  );
}
