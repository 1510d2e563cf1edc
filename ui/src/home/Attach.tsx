import { useRef } from 'react';
import type { Intent } from '../chat/upload';
import { ImageIcon, MicIcon, PaperclipIcon } from '../components/icons';
import { useT } from '../i18n';
import { useUpload } from './useUpload';

interface Picker {
  intent: Intent;
  accept: string;
  label: 'upload.attachMedia' | 'upload.attachFile' | 'upload.attachVoice';
  icon: () => React.JSX.Element;
}

const pickers: Picker[] = [
  { intent: 'media', accept: 'image/*,video/*', label: 'upload.attachMedia', icon: ImageIcon },
  { intent: 'file', accept: '', label: 'upload.attachFile', icon: PaperclipIcon },
  { intent: 'voice', accept: 'audio/*', label: 'upload.attachVoice', icon: MicIcon },
];

/** The composer's buttons for pictures and videos, files and voice messages, with the upload's progress. */
export function Attach({ peerId }: { peerId: string }) {
  const t = useT();
  const { status, start, cancel, retry, dismiss } = useUpload(peerId);
  const inputs = useRef<Record<string, HTMLInputElement | null>>({});
  const busy = status?.phase === 'uploading';

  return (
    <>
      {pickers.map(({ intent, accept, label, icon: PickerIcon }) => (
        <span key={intent} className="attach">
          <button
            type="button"
            className="icon-button"
            aria-label={t(label)}
            title={t(label)}
            disabled={busy}
            data-testid={`attach-${intent}`}
            onClick={() => inputs.current[intent]?.click()}
          >
            <PickerIcon />
          </button>
          <input
            ref={(element) => {
              inputs.current[intent] = element;
            }}
            type="file"
            hidden
            accept={accept || undefined}
            data-testid={`attach-${intent}-input`}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void start(file, intent);
            }}
          />
        </span>
      ))}
      {status ? (
        <div
          className={`upload-status upload-${status.phase}`}
          role="status"
          data-testid="upload-status"
          data-phase={status.phase}
        >
          <span className="upload-name">{t('upload.uploading', { name: status.fileName })}</span>
          {status.phase === 'uploading' ? (
            <>
              <progress max={100} value={status.percent} aria-label={`${status.percent}%`} />
              <span className="upload-percent">{status.percent}%</span>
              <button type="button" className="button button-secondary" onClick={cancel} data-testid="upload-cancel">
                {t('upload.cancel')}
              </button>
            </>
          ) : (
            <>
              <span className="upload-error">{t(status.phase === 'timeout' ? 'upload.timeout' : 'upload.failed')}</span>
              <button type="button" className="button button-primary" onClick={retry} data-testid="upload-retry">
                {t('upload.retry')}
              </button>
              <button type="button" className="button button-secondary" onClick={dismiss}>
                {t('common.close')}
              </button>
            </>
          )}
        </div>
      ) : null}
    </>
  );
}
