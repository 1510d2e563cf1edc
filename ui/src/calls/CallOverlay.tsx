import '../styles/calls.css';
import { useEffect, useState } from 'react';
import { Avatar } from '../components/Avatar';
import { displayName } from '../home/SessionItem';
import { usePeer } from '../home/usePeer';
import { useT } from '../i18n';
import { answerCall, endCall, setMinimised } from './actions';
import { HangUpIcon, MinimiseIcon, PhoneIcon, VideoIcon } from './CallIcons';
import { formatDuration, type ActiveCall } from './signals';

/** Seconds since `since`, ticking every second. */
function useElapsed(since: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!since) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return since ? Math.max(0, Math.floor((now - since) / 1000)) : 0;
}

/**
 * The call shown over the page: the outgoing view while ringing out, the incoming dialog while
 * ringing in, and the in-call view, which can be minimised to a bar with the timer.
 */
export function CallOverlay({ call }: { call: ActiveCall }) {
  return <CallView key={call.callId} call={call} />;
}

function CallView({ call }: { call: ActiveCall }) {
  const t = useT();
  const peer = usePeer(call.peerId);
  const name = displayName(peer) || call.peerId;
  const elapsed = useElapsed(call.phase === 'inCall' ? (call.answeredAt ?? call.startedAt) : undefined);
  const mediaLabel = call.media === 'video' ? t('call.video') : t('call.voice');

  if (call.phase === 'inCall' && call.minimised) {
    return (
      <div className="call-bar" role="status" data-testid="call-bar" data-call-id={call.callId}>
        {call.media === 'video' ? <VideoIcon size={16} /> : <PhoneIcon size={16} />}
        <button type="button" className="call-bar-restore" onClick={() => setMinimised(false)} data-testid="call-restore">
          {name} · <span data-testid="call-timer">{formatDuration(elapsed)}</span>
        </button>
        <button
          type="button"
          className="call-round call-danger call-small"
          aria-label={t('call.hangUp')}
          onClick={() => void endCall('complete')}
          data-testid="call-hang-up"
        >
          <HangUpIcon size={16} />
        </button>
      </div>
    );
  }

  let status: string;
  let actions: React.ReactNode;
  switch (call.phase) {
    case 'incoming':
      status = call.media === 'video' ? t('call.incomingVideo') : t('call.incomingVoice');
      actions = (
        <>
          <RoundButton label={t('call.reject')} tone="danger" onClick={() => void endCall('reject')} testId="call-reject" />
          <RoundButton label={t('call.accept')} tone="accept" onClick={() => void answerCall()} testId="call-accept" />
        </>
      );
      break;
    case 'outgoing':
      status = t('call.calling');
      actions = (
        <RoundButton label={t('call.cancel')} tone="danger" onClick={() => void endCall('cancel')} testId="call-cancel" />
      );
      break;
    case 'inCall':
      status = `${t('call.inCall')} · ${formatDuration(elapsed)}`;
      actions = (
        <>
          <RoundButton
            label={t('call.minimise')}
            tone="neutral"
            onClick={() => setMinimised(true)}
            testId="call-minimise"
            icon={<MinimiseIcon />}
          />
          <RoundButton label={t('call.hangUp')} tone="danger" onClick={() => void endCall('complete')} testId="call-hang-up" />
        </>
      );
      break;
  }

  return (
    <div className="call-backdrop">
      <div
        className={`call-card call-${call.phase}`}
        role={call.phase === 'incoming' ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-label={`${mediaLabel} · ${name}`}
        data-testid={`call-${call.phase}`}
        data-call-id={call.callId}
        data-media={call.media}
      >
        <Avatar name={peer.name} remark={peer.remark} headUrl={peer.headUrl} seed={call.peerId} size={72} />
        <h2 className="call-name">{name}</h2>
        <p className="call-status" data-testid="call-status">
          {status}
        </p>
        {call.phase === 'inCall' ? (
          <p className="call-note" data-testid="call-media-unavailable">
            {t('call.mediaUnavailable')}
          </p>
        ) : null}
        <div className="call-actions">{actions}</div>
      </div>
    </div>
  );
}

interface RoundButtonProps {
  label: string;
  tone: 'danger' | 'accept' | 'neutral';
  onClick: () => void;
  testId: string;
  icon?: React.ReactNode;
}

function RoundButton({ label, tone, onClick, testId, icon }: RoundButtonProps) {
  return (
    <div className="call-action">
      <button type="button" className={`call-round call-${tone}`} aria-label={label} onClick={onClick} data-testid={testId}>
        {icon ?? (tone === 'danger' ? <HangUpIcon /> : <PhoneIcon />)}
      </button>
      <span aria-hidden="true">{label}</span>
    </div>
  );
}
