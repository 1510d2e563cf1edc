import { Avatar } from '../components/Avatar';
import { Dialog } from '../components/Dialog';
import { useT } from '../i18n';
import { useMessageReaders, type Reader } from './api';
import './groups.css';

/** Who of a group's members have read one of my messages, and who not yet; read afresh on each opening. */
export function ReadersDialog({ groupId, messageId, onClose }: { groupId: string; messageId: string; onClose: () => void }) {
  const t = useT();
  const { data, error, isLoading, mutate } = useMessageReaders(groupId, messageId);

  function list(readers: Reader[], testId: string) {
    return (
      <ul className="picker-list readers-list" data-testid={testId}>
        {readers.map((reader) => (
          <li key={reader.memberId} className="group-member" data-testid="reader" data-member-id={reader.memberId}>
            <Avatar name={reader.name} headUrl={reader.headUrl} seed={reader.memberId} size={32} />
            <span className="picker-name">{reader.name}</span>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Dialog
      title={data ? t('gchat.readBy', { n: data.readCount }) : t('gchat.readers')}
      onClose={onClose}
      testId="readers-dialog"
      footer={
        <button type="button" className="button button-secondary" onClick={onClose} data-testid="readers-close">
          {t('common.close')}
        </button>
      }
    >
      {data ? (
        <div className="readers">
          {data.read.length > 0 ? list(data.read, 'readers-read') : <p className="muted">{t('gchat.noReaders')}</p>}
          {data.unread.length > 0 ? (
            <>
              <h3 className="group-label" data-testid="readers-unread-count">
                {t('gchat.notReadYet', { n: data.unreadCount })}
              </h3>
              {list(data.unread, 'readers-unread')}
            </>
          ) : (
            <p className="muted">{t('gchat.allRead')}</p>
          )}
        </div>
      ) : error ? (
        <p className="muted" role="alert">
          {error.message || t('common.requestFailed')}{' '}
          <button type="button" className="link-button" onClick={() => void mutate()}>
            {t('common.retry')}
          </button>
        </p>
      ) : isLoading ? (
        <p className="muted">{t('common.loading')}</p>
      ) : null}
    </Dialog>
  );
}
