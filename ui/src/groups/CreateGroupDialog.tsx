import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { useFriendGroups } from '../api/hooks';
import { Dialog } from '../components/Dialog';
import { Field } from '../components/Field';
import { useT } from '../i18n';
import { FriendPicker } from '../personal/FriendPicker';
import { showToast } from '../state/toast';
import { paneAtom } from '../state/ui';
import { buildGroup } from './api';
import { AvatarPicker } from './AvatarPicker';
import { createRefusal, MAX_INVITE } from './logic';
import { groupWrite } from './write';

/** Two steps: avatar, name and announcement; then the friends to invite (at most 100). */
export function CreateGroupDialog({ onClose, onBack }: { onClose: () => void; onBack: () => void }) {
  const t = useT();
  const setPane = useSetAtom(paneAtom);
  const friends = (useFriendGroups().data ?? []).flatMap((group) => group.friends);
  const [step, setStep] = useState<'info' | 'members'>('info');
  const [name, setName] = useState('');
  const [notice, setNotice] = useState('');
  const [headUrl, setHeadUrl] = useState('');
  const [memberIds, setMemberIds] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  function next() {
    if (!name.trim()) showToast(t('group.nameEmpty'), 'error');
    else setStep('members');
  }

  async function create() {
    const refusal = createRefusal(name, memberIds);
    if (refusal) {
      showToast(t(refusal), 'error');
      return;
    }
    setBusy(true);
    let groupId = '';
    const done = await groupWrite(null, async () => {
      const created = await buildGroup({ name: name.trim(), notice: notice.trim(), headUrl, memberIds });
      groupId = created.groupId;
      return created;
    });
    setBusy(false);
    if (!done) return;
    showToast(t('group.created'), 'success');
    setPane({ kind: 'chat', peerId: groupId, chatType: 'Group' });
    onClose();
  }

  const info = step === 'info';
  return (
    <Dialog
      title={t('group.create')}
      onClose={onClose}
      wide
      testId="group-create"
      footer={
        <>
          {!info ? <span className="dialog-count muted">{t('group.selectedOf', { n: memberIds.length })}</span> : null}
          <button type="button" className="button button-secondary" onClick={info ? onBack : () => setStep('info')}>
            {t('group.back')}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={info ? next : () => void create()}
            data-testid={info ? 'group-create-next' : 'group-create-submit'}
          >
            {t(info ? 'group.next' : 'group.createSubmit')}
          </button>
        </>
      }
    >
      {info ? (
        <div className="form">
          <AvatarPicker seed="new-group" name={name} headUrl={headUrl} onChange={setHeadUrl} />
          <Field
            label={t('group.name')}
            value={name}
            onChange={setName}
            maxLength={64}
            data-autofocus
            data-testid="group-name"
          />
          <Field label={t('group.notice')} value={notice} onChange={setNotice} maxLength={2000} data-testid="group-notice" />
        </div>
      ) : friends.length === 0 ? (
        <p className="list-note">{t('group.noFriends')}</p>
      ) : (
        <FriendPicker
          friends={friends}
          selected={memberIds}
          onChange={setMemberIds}
          max={MAX_INVITE}
          tooMany="group.tooMany"
          testId="group-create-friends"
        />
      )}
    </Dialog>
  );
}
