import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { authAtom } from '../auth/authState';
import { formatSize, mediaUrl, type MediaContent } from '../chat/upload';
import { FileIcon } from '../components/icons';
import { useT } from '../i18n';
import { usePreferences } from '../settings/usePreferences';

const THUMB_MAX_PX = 240;

/** A media message's body: picture thumbnail (click for the large view), video, recording or file link. */
export function MediaView({ msgType, media }: { msgType: string; media: MediaContent }) {
  const t = useT();
  const token = useAtomValue(authAtom)?.token ?? '';
  const [large, setLarge] = useState(false);
  const separateWindow = usePreferences().prefs.imagePreviewWindow;
  const url = mediaUrl(media.filePath, token);
  if (!url) return null;

  if (msgType === 'Picture') {
    const scale = media.width && media.height ? Math.min(1, THUMB_MAX_PX / Math.max(media.width, media.height)) : 0;
    return (
      <>
        <button
          type="button"
          className="media-picture"
          onClick={() => (separateWindow ? window.open(url, '_blank', 'noopener') : setLarge(true))}
          aria-label={t('media.openPicture')}
          data-testid="media-picture"
        >
          <img
            src={url}
            alt={media.fileName}
            width={scale ? Math.round(media.width! * scale) : undefined}
            height={scale ? Math.round(media.height! * scale) : undefined}
          />
        </button>
        {large ? <Lightbox url={url} alt={media.fileName} onClose={() => setLarge(false)} /> : null}
      </>
    );
  }
  if (msgType === 'VideoMsg') {
    return <video className="media-video" controls preload="metadata" src={url} data-testid="media-video" />;
  }
  if (msgType === 'VoiceMsg') {
    return <audio className="media-audio" controls preload="metadata" src={url} data-testid="media-audio" />;
  }
  return (
    <a className="media-file" href={url} download={media.fileName} data-testid="media-file">
      <FileIcon />
      <span className="media-file-text">
        <span className="media-file-name">{media.fileName}</span>
        <span className="media-file-size">
          {formatSize(media.size)} · {t('media.download')}
        </span>
      </span>
    </a>
  );
}

function Lightbox({ url, alt, onClose }: { url: string; alt: string; onClose: () => void }) {
  const t = useT();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="lightbox" role="dialog" aria-modal="true" aria-label={alt} onClick={onClose} data-testid="lightbox">
      <img src={url} alt={alt} />
      <button type="button" className="button button-secondary lightbox-close" onClick={onClose}>
        {t('common.close')}
      </button>
    </div>
  );
}
