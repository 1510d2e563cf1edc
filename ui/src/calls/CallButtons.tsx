import { useAtomValue } from 'jotai';
import { useSystemInfo } from '../api/hooks';
import { authAtom } from '../auth/authState';
import { callsEnabled } from '../state/presence';
import { useT } from '../i18n';
import { startCall } from './actions';
import { PhoneIcon, VideoIcon } from './CallIcons';
import { activeCallAtom } from './state';

/**
 * Voice and video call buttons of a friend chat's header; off while a call is shown, and absent
 * when the tenant's system info says hasVoiceCall false.
 */
export function CallButtons({ peerId }: { peerId: string }) {
  const t = useT();
  const auth = useAtomValue(authAtom);
  const busy = useAtomValue(activeCallAtom) !== null;
  const info = useSystemInfo();
  if (!auth || !callsEnabled(info.data)) return null;
  return (
    <div className="call-buttons">
      {media.map(({ kind, label, icon }) => (
        <button
          key={kind}
          type="button"
          className="icon-button"
          aria-label={t(label)}
          title={t(label)}
          disabled={busy}
          onClick={() => void startCall(peerId, kind, auth.user.id)}
          data-testid={`call-${kind}`}
        >
          {icon}
        </button>
      ))}
    </div>
  );
}

const media = [
  { kind: 'voice', label: 'call.startVoice', icon: <PhoneIcon /> },
  { kind: 'video', label: 'call.startVideo', icon: <VideoIcon /> },
] as const;
