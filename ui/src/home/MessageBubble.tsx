import type { Message } from '../api/types';
import { CallRecord } from '../calls/CallRecord';
import { isCallRecord } from '../calls/record';
import { parseCard } from '../chat/contactCard';
import { clockTime } from '../chat/format';
import { isKnownType, previewText } from '../chat/preview';
import { highlightParts } from '../chat/search';
import { resend } from '../chat/send';
import { Avatar } from '../components/Avatar';
import { MEDIA_TYPES, parseMediaContent } from '../chat/upload';
import { MoreIcon } from '../components/icons';
import { useT, type MessageKey } from '../i18n';
import { MediaView } from './MediaView';
import { useLongPress } from './useLongPress';
import { useParentMessage } from './useParentMessage';

/** What every bubble of one chat shares. */
export interface BubbleEnv {
  me: string;
  /** who sent a message: the friend, or a member of the group */
  nameOf: (memberId: string) => string;
  /** a member's picture ('' for none) */
  headOf: (memberId: string) => string;
  /** a group member's sender-name colour, `--sender-{n}` */
  toneOf: (memberId: string) => number;
  /** a group chat names the sender above the first message of each run, and shows their avatar */
  showSenders: boolean;
  /** the search query whose matches are highlighted */
  query: string;
  /** a message of the loaded timeline (changes applied) */
  find: (id: string) => Message | undefined;
  /** true when this page saw the message deleted */
  isRemoved: (id: string) => boolean;
  selecting: boolean;
  isSelected: (id: string) => boolean;
  onToggle: (message: Message) => void;
  onMenu: (message: Message, x: number, y: number) => void;
  onJump: (id: string) => void;
  onOpenMember: (memberId: string) => void;
  /** `@[id]` placeholders named: `@name` in messages (at), plain names in system lines */
  mentions: (text: string, at: boolean) => string;
  /** the text of a system line (an Event) */
  eventText: (message: Message) => string;
}

interface MessageBubbleProps {
  message: Message;
  env: BubbleEnv;
  /** false inside a run of messages: the last one of the run carries the time and status */
  showMeta: boolean;
  /** the first message of a run of one sender */
  startsRun: boolean;
}

export function Highlighted({ text, query }: { text: string; query: string }) {
  if (!query) return <>{text}</>;
  return (
    <>
      {highlightParts(text, query).map((part, index) =>
        part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </>
  );
}

function senderName(message: Message, env: BubbleEnv, you: string): string {
  return message.from === env.me ? you : env.nameOf(message.from);
}

/** The quoted parent of a reply; `inert` inside a bubble that is itself a button (a failed send). */
function ReplyQuote({ parentId, env, inert }: { parentId: string; env: BubbleEnv; inert: boolean }) {
  const t = useT();
  const loaded = env.find(parentId);
  const removed = env.isRemoved(parentId);
  const fetched = useParentMessage(loaded || removed ? null : parentId);
  const parent = loaded ?? (removed ? null : fetched.data);
  let text: string;
  if (parent === undefined) text = fetched.error ? t('preview.unsupported') : t('message.parentLoading');
  else if (parent === null) text = t('message.parentDeleted');
  else if (parent.recalled) text = t('message.parentRecalled');
  else text = previewText(parent.msgType === 'Forward' ? (parent.forwardType ?? 'Text') : parent.msgType, parent.content, t);
  const gone = parent === null || !!parent?.recalled;
  const body = (
    <>
      {parent ? <strong>{senderName(parent, env, t('message.you'))}</strong> : null}
      <span className="reply-quote-text">{text}</span>
    </>
  );
  if (inert) {
    return (
      <span className={`reply-quote${gone ? ' reply-quote-gone' : ''}`} data-testid="reply-quote" data-parent-id={parentId}>
        {body}
      </span>
    );
  }
  return (
    <button
      type="button"
      className={`reply-quote${gone ? ' reply-quote-gone' : ''}`}
      onClick={(event) => {
        event.stopPropagation();
        if (loaded) env.onJump(parentId);
      }}
      disabled={!loaded}
      data-testid="reply-quote"
      data-parent-id={parentId}
    >
      {body}
    </button>
  );
}

function ContactCardView({ content, env }: { content: string; env: BubbleEnv }) {
  const t = useT();
  const card = parseCard(content);
  if (!card) return <>{t('preview.ShareContact')}</>;
  return (
    <button
      type="button"
      className="contact-card"
      onClick={() => env.onOpenMember(card.memberId)}
      data-testid="contact-card"
      data-member-id={card.memberId}
    >
      <span className="contact-card-head">
        <Avatar name={card.name || card.account} headUrl={card.headUrl} seed={card.memberId} size={40} />
        <span className="contact-card-text">
          <strong>
            <Highlighted text={card.name || card.account} query={env.query} />
          </strong>
          <span>@{card.account}</span>
        </span>
      </span>
      <span className="contact-card-label">{t('message.card')}</span>
    </button>
  );
}

/** The content by type; `plain` (inside a failed send's button) shows media as its placeholder text. */
function Body({ message, env, plain }: { message: Message; env: BubbleEnv; plain: boolean }) {
  const t = useT();
  const type = message.msgType === 'Forward' ? (message.forwardType ?? 'Text') : message.msgType;
  if (type === 'ShareContact') return <ContactCardView content={message.content} env={env} />;
  if (!isKnownType(type)) return <span data-testid="unsupported">{t('message.unsupported')}</span>;
  const media = !plain && MEDIA_TYPES.includes(type) ? parseMediaContent(message.content) : null;
  if (media) return <MediaView msgType={type} media={media} />;
  const text = previewText(type, message.content, t);
  return <Highlighted text={type === 'AtText' || type === 'Reply' ? env.mentions(text, true) : text} query={env.query} />;
}

export function MessageBubble({ message, env, showMeta, startsRun }: MessageBubbleProps) {
  const t = useT();
  const own = message.from === env.me;
  const failed = own && message.msgStatus === 'failedSent';
  const time = message.serverReceiveTime || message.createTime;
  const selected = env.selecting && !!message.id && env.isSelected(message.id);
  const longPress = useLongPress((x, y) => env.onMenu(message, x, y));
  if (isCallRecord(message.msgType)) return <CallRecord message={message} own={own} />;
  const type = message.msgType === 'Forward' ? (message.forwardType ?? 'Text') : message.msgType;
  const card = type === 'ShareContact';
  const media = MEDIA_TYPES.includes(type) ? parseMediaContent(message.content) : null;

  const content = (
    <>
      {message.msgType === 'Forward' ? (
        <span className="forwarded-label" data-testid="forwarded-label">
          {t('message.forwarded')}
        </span>
      ) : null}
      {message.msgType === 'Reply' && message.parentMessageId ? (
        <ReplyQuote parentId={message.parentMessageId} env={env} inert={failed} />
      ) : null}
      <span className="bubble-text" data-testid="message-text">
        <Body message={message} env={env} plain={failed} />
      </span>
      {message.edited ? (
        <span className="edited-label" data-testid="edited-label">
          {' '}
          {t('message.edited')}
        </span>
      ) : null}
    </>
  );

  return (
    <div
      className={`message${own ? ' message-own' : ''}${failed ? ' message-failed' : ''}${showMeta ? '' : ' message-in-run'}${
        selected ? ' message-selected' : ''
      }${card ? ' message-card' : ''}${env.showSenders && !own ? ' message-with-avatar' : ''}`}
      data-testid="message"
      data-status={message.msgStatus}
      data-uuid={message.uuid}
      data-message-id={message.id || undefined}
      data-type={message.msgType}
      onContextMenu={(event) => {
        if (env.selecting) return;
        event.preventDefault();
        env.onMenu(message, event.clientX, event.clientY);
      }}
      {...(env.selecting ? {} : longPress)}
    >
      {env.showSenders && startsRun && !own ? (
        <span
          className="message-sender"
          style={{ color: `var(--sender-${env.toneOf(message.from)})` }}
          data-testid="message-sender"
          data-member-id={message.from}
        >
          {env.nameOf(message.from)}
        </span>
      ) : null}
      <div className="message-row">
        {env.showSenders && !own ? (
          startsRun ? (
            <button
              type="button"
              className="message-avatar"
              onClick={() => env.onOpenMember(message.from)}
              aria-label={env.nameOf(message.from)}
              data-testid="message-avatar"
              data-member-id={message.from}
            >
              <Avatar name={env.nameOf(message.from)} headUrl={env.headOf(message.from)} seed={message.from} size={32} />
            </button>
          ) : (
            <span className="message-avatar" aria-hidden="true" />
          )
        ) : null}
        {env.selecting ? <SelectBox message={message} env={env} selected={selected} /> : null}
        {failed ? (
          <button type="button" className="bubble" onClick={() => resend(message)} aria-label={`${message.content} — ${t('status.failedSent')}`}>
            {content}
          </button>
        ) : (
          <div className={media ? 'bubble bubble-media' : 'bubble'}>{content}</div>
        )}
        {env.selecting || failed || !message.id ? null : (
          <button
            type="button"
            className="icon-button message-more"
            aria-label={t('menu.more')}
            aria-haspopup="menu"
            onClick={(event) => {
              const box = event.currentTarget.getBoundingClientRect();
              env.onMenu(message, box.left, box.bottom);
            }}
            data-testid="message-more"
          >
            <MoreIcon />
          </button>
        )}
      </div>
      {showMeta ? (
        <div className="message-meta">
          <time>{clockTime(time)}</time>
          {own ? (
            <span className={`message-status status-${message.msgStatus}`} data-testid="message-status">
              {t(`status.${message.msgStatus}` as MessageKey)}
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** The checkbox of a message in multi-select mode; an unforwardable one says why when ticked. */
function SelectBox({ message, env, selected }: { message: Message; env: BubbleEnv; selected: boolean }) {
  const t = useT();
  return (
    <input
      type="checkbox"
      className="message-check"
      checked={selected}
      onChange={() => env.onToggle(message)}
      aria-label={t('forward.select')}
      data-testid="message-check"
    />
  );
}

/** A recalled message or an event: one centred line. */
export function SystemLine({ message, env }: { message: Message; env: BubbleEnv }) {
  const t = useT();
  const longPress = useLongPress((x, y) => env.onMenu(message, x, y));
  const text = message.recalled
    ? message.from === env.me
      ? t('message.recalledByMe')
      : t('message.recalledBy', { name: env.nameOf(message.from) })
    : env.eventText(message);
  return (
    <p
      className="system-line"
      data-testid={message.recalled ? 'recall-line' : 'event-line'}
      data-message-id={message.id || undefined}
      onContextMenu={(event) => {
        if (env.selecting) return;
        event.preventDefault();
        env.onMenu(message, event.clientX, event.clientY);
      }}
      {...(env.selecting ? {} : longPress)}
    >
      {env.selecting ? <SelectBox message={message} env={env} selected={false} /> : null}
      {text}
    </p>
  );
}
