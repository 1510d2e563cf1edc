import { useState } from 'react';
import { useFriendGroups } from '../api/hooks';
import { Dialog } from '../components/Dialog';
import { useT } from '../i18n';
import { FriendPicker } from '../personal/FriendPicker';
import { showToast } from '../state/toast';
import { inviteToGroup } from './api';
import { MAX_INVITE } from './logic';
import { inviteOutcome } from './chatLogic';
import type { GroupRole } from '../api/types';
import { groupWrite } from './write';

/** Friends not yet in the group, at most 100 at once (batchMemberToGroup). */
export function InviteDialog({
  groupId,
  role,
  memberIds,
  onClose,
}: {
  groupId: string;
  /** a Normal member's invitations become join requests */
  role?: GroupRole;
  memberIds: string[];
  onClose: () => void;
}) {
  const t = useT();
  const friends = (useFriendGroups().data ?? [])
    .flatMap((group) => group.friends)
    .filter((friend) => !memberIds.includes(friend.id));
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  async function invite() {
    if (selected.length === 0) {
      showToast(t('group.pickMembers'), 'error');
      return;
    }
    setBusy(true);
    const done = await groupWrite(groupId, () => inviteToGroup(groupId, selected));
    setBusy(false);
    if (!done) return;
    showToast(t(inviteOutcome(role) === 'requested' ? 'gchat.requestSent' : 'group.invited'), 'success');
    onClose();
  }

  return (
    <Dialog
      title={t('group.inviteFriends')}
      onClose={onClose}
      wide
      testId="group-invite-dialog"
      footer={
        <>
          <span className="dialog-count muted">{t('group.selectedOf', { n: selected.length })}</span>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void invite()} data-testid="group-invite-submit">
            {t('group.invite')}
          </button>
        </>
      }
    >
      {friends.length === 0 ? (
        <p className="list-note">{t('group.noFriends')}</p>
      ) : (
        <FriendPicker
          friends={friends}
          selected={selected}
          onChange={setSelected}
          max={MAX_INVITE}
          tooMany="group.tooMany"
          testId="group-invite-friends"
        />
      )}
    </Dialog>
  );
}
