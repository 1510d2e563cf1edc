import type { Message } from '../api/types';
import { mediaHistory } from '../chat/mediaHistory';
import { Dialog } from '../components/Dialog';
import { useT } from '../i18n';
import { MediaView } from './MediaView';

/** The pictures and videos of the loaded history, newest first, each opening in the media viewer. */
export function MediaHistory({
  timeline,
  hasMore,
  loadingMore,
  onLoadOlder,
  onClose,
}: {
  timeline: Message[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadOlder: () => void;
  onClose: () => void;
}) {
  const t = useT();
  const items = mediaHistory(timeline);
  return (
    <Dialog
      title={t('media.history')}
      onClose={onClose}
      wide
      testId="media-history"
      footer={
        <>
          {hasMore ? (
            <button
              type="button"
              className="button button-secondary"
              disabled={loadingMore}
              onClick={onLoadOlder}
              data-testid="media-history-older"
            >
              {loadingMore ? t('chat.loadingOlder') : t('media.historyOlder')}
            </button>
          ) : (
            <span className="dialog-count muted">{t('media.historyAll')}</span>
          )}
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('common.close')}
          </button>
        </>
      }
    >
      {items.length === 0 ? <p className="list-note">{t('media.historyEmpty')}</p> : null}
      <ul className="media-history">
        {items.map((item) => (
          <li key={item.id} data-testid="media-history-item" data-type={item.msgType}>
            <MediaView msgType={item.msgType} media={item.media} />
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
