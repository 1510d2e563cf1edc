import { useState } from 'react';
import { useT } from '../i18n';
import { showToast } from '../state/toast';
import { answerGroupApply, refreshGroup, useGroupApplies } from './api';
import { pendingRequestsOf } from './chatLogic';

/** The owner's and the admins' view of the group's pending join requests (a Normal member's invitations). */
export function GroupRequests({ groupId }: { groupId: string }) {
  const t = useT();
  const applies = useGroupApplies(true);
  const [busy, setBusy] = useState<string | null>(null);
  const pending = pendingRequestsOf(applies.data?.records ?? [], groupId);

  async function answer(id: string, status: 'accepted' | 'rejected') {
    setBusy(id);
    try {
      const { position } = await answerGroupApply(id, status);
      await refreshGroup(groupId, position);
      showToast(t(status === 'accepted' ? 'gchat.acceptedDone' : 'gchat.refusedDone'), 'success');
    } catch {
      // the fetch layer has shown the server's text
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="member-card group-requests" data-testid="group-requests">
      <h3 className="group-label">{t('gchat.requests')}</h3>
      {pending.length === 0 ? (
        <p className="muted" data-testid="group-requests-none">
          {t('gchat.noRequests')}
        </p>
      ) : (
        <ul className="plain-list">
          {pending.map((item) => (
            <li key={item.id} className="group-request" data-testid="group-request" data-member-id={item.memberId}>
              <span className="group-request-text">
                {t('gchat.requestLine', {
                  inviter: item.inviter?.name || item.inviterId,
                  member: item.member?.name || item.memberId,
                })}
              </span>
              <button
                type="button"
                className="button button-secondary"
                disabled={busy === item.id}
                onClick={() => void answer(item.id, 'rejected')}
                data-testid="group-request-refuse"
              >
                {t('gchat.refuse')}
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={busy === item.id}
                onClick={() => void answer(item.id, 'accepted')}
                data-testid="group-request-accept"
              >
                {t('gchat.accept')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
