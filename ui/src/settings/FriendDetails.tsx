import { useSetAtom } from 'jotai';
import { useState } from 'react';
import useSWR, { mutate } from 'swr';
import { clearHistory } from '../api/endpoints';
import { keys } from '../api/keys';
import type { Friend } from '../api/types';
import { Dialog } from '../components/Dialog';
import { Field } from '../components/Field';
import { useT } from '../i18n';
import { showToast } from '../state/toast';
import { paneAtom } from '../state/ui';
import { deleteFriend, modifyFriend, settingsKeys } from './api';

/** A friend's details: remark, block or unblock, delete (with a confirmation), search and delete the chat. */
export function FriendDetails({ friend, name }: { friend: Friend; name: string }) {
  const t = useT();
  const setPane = useSetAtom(paneAtom);
  const [remark, setRemark] = useState(friend.remark);
  const [confirm, setConfirm] = useState<'delete' | 'clear' | null>(null);
  // The friend's last login address; swr caches it for the session.
  const ip = useSWR<{ ip: string }>(settingsKeys.friendIp(friend.friendMemberId || friend.id), { revalidateOnFocus: false });
  const id = friend.friendMemberId || friend.id;

  async function run(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      await mutate(keys.friends);
      showToast(done, 'success');
    } catch (error) {
      showToast((error as Error).message, 'error');
    }
  }

  return (
    <div className="friend-details" data-testid="friend-details">
      {ip.data?.ip ? <p className="muted">{t('friend.ip', { ip: ip.data.ip })}</p> : null}
      <Field
        label={t('friend.remark')}
        value={remark}
        onChange={setRemark}
        name="remark"
        maxLength={200}
        addon={
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void run(() => modifyFriend(id, { remark }), t('friend.remarkSaved'))}
            data-testid="save-remark"
          >
            {t('friend.saveRemark')}
          </button>
        }
      />
      <div className="member-card-actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() =>
            void run(() => modifyFriend(id, { blocked: !friend.blocked }), t(friend.blocked ? 'friend.unblocked' : 'friend.blocked'))
          }
          data-testid="toggle-block"
          data-blocked={friend.blocked ? 'true' : 'false'}
        >
          {t(friend.blocked ? 'friend.unblock' : 'friend.block')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => setPane({ kind: 'chat', peerId: id })} data-testid="search-chat">
          {t('friend.searchChat')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => setConfirm('clear')} data-testid="clear-chat">
          {t('friend.clearChat')}
        </button>
        <button type="button" className="button button-danger" onClick={() => setConfirm('delete')} data-testid="delete-friend">
          {t('friend.delete')}
        </button>
      </div>
      {confirm ? (
        <Dialog
          title={t(confirm === 'delete' ? 'friend.delete' : 'friend.clearChat')}
          role="alertdialog"
          onClose={() => setConfirm(null)}
          testId="friend-confirm"
          footer={
            <>
              <button type="button" className="button button-secondary" onClick={() => setConfirm(null)}>
                {t('common.cancel')}
              </button>
              <button
                type="button"
                className="button button-danger"
                data-testid="friend-confirm-ok"
                onClick={() => {
                  setConfirm(null);
                  if (confirm === 'delete') {
                    void run(async () => {
                      await deleteFriend(id);
                      await mutate(keys.sessions);
                      setPane({ kind: 'none' });
                    }, t('friend.deleted'));
                  } else {
                    void run(() => clearHistory(id), t('clear.done'));
                  }
                }}
              >
                {t('common.confirm')}
              </button>
            </>
          }
        >
          <p>{confirm === 'delete' ? t('friend.confirmDelete', { name }) : t('clear.body', { name })}</p>
        </Dialog>
      ) : null}
    </div>
  );
}
