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

const ZOOMS = [1, 1.5, 2, 3, 4];

/**
 * The large view of a picture on a dark backdrop: zoom in and out (the zoomed picture scrolls),
 * download, close. Esc and a click on the backdrop close it.
 */
function Lightbox({ url, alt, onClose }: { url: string; alt: string; onClose: () => void }) {
  const t = useT();
  const [level, setLevel] = useState(0);
  const [fitWidth, setFitWidth] = useState(0);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
      else if (event.key === '+' || event.key === '=') setLevel((at) => Math.min(at + 1, ZOOMS.length - 1));
      else if (event.key === '-') setLevel((at) => Math.max(at - 1, 0));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const zoom = ZOOMS[level]!;
  const zoomed = zoom > 1 && fitWidth > 0;
  const stop = (event: React.MouseEvent) => event.stopPropagation();
  return (
    <div className="lightbox" role="dialog" aria-modal="true" aria-label={alt} onClick={onClose} data-testid="lightbox">
      <div className={zoomed ? 'lightbox-stage lightbox-stage-zoomed' : 'lightbox-stage'}>
        <img
          src={url}
          alt={alt}
          onClick={stop}
          onLoad={(event) => setFitWidth(event.currentTarget.getBoundingClientRect().width)}
          style={zoomed ? { width: fitWidth * zoom, maxWidth: 'none', maxHeight: 'none' } : undefined}
          data-zoom={zoom}
          data-testid="lightbox-image"
        />
      </div>
      <div className="lightbox-tools" onClick={stop}>
        <button
          type="button"
          className="lightbox-tool"
          onClick={() => setLevel((at) => Math.max(at - 1, 0))}
          disabled={level === 0}
          aria-label={t('media.zoomOut')}
          title={t('media.zoomOut')}
          data-testid="lightbox-zoom-out"
        >
          −
        </button>
        <span className="lightbox-zoom" data-testid="lightbox-zoom">
          {Math.round(zoom * 100)}%
        </span>
        <button
          type="button"
          className="lightbox-tool"
          onClick={() => setLevel((at) => Math.min(at + 1, ZOOMS.length - 1))}
          disabled={level === ZOOMS.length - 1}
          aria-label={t('media.zoomIn')}
          title={t('media.zoomIn')}
          data-testid="lightbox-zoom-in"
        >
          +
        </button>
        <a className="lightbox-tool lightbox-download" href={url} download={alt} data-testid="lightbox-download">
          {t('media.download')}
        </a>
        <button type="button" className="lightbox-tool" onClick={onClose} data-testid="lightbox-close">
          {t('common.close')}
        </button>
      </div>
    </div>
  );
}
