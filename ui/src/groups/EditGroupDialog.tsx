import { useState } from 'react';
import type { Group } from '../api/types';
import { Dialog } from '../components/Dialog';
import { Field } from '../components/Field';
import { useT } from '../i18n';
import { showToast } from '../state/toast';
import { modifyGroup } from './api';
import { AvatarPicker } from './AvatarPicker';
import { groupWrite } from './write';

/** Name, announcement and avatar of a group (Owner and Admin). */
export function EditGroupDialog({ group, onClose }: { group: Group; onClose: () => void }) {
  const t = useT();
  const [name, setName] = useState(group.name);
  const [notice, setNotice] = useState(group.notice);
  const [headUrl, setHeadUrl] = useState(group.headUrl);
  const [busy, setBusy] = useState(false);

  async function save() {
    if (!name.trim()) {
      showToast(t('group.nameEmpty'), 'error');
      return;
    }
    setBusy(true);
    const done = await groupWrite(group.id, () =>
      modifyGroup(group.id, { name: name.trim(), notice: notice.trim(), headUrl }),
    );
    setBusy(false);
    if (!done) return;
    showToast(t('group.saved'), 'success');
    onClose();
  }

  return (
    <Dialog
      title={t('group.edit')}
      onClose={onClose}
      testId="group-edit-dialog"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void save()} data-testid="group-edit-save">
            {t('group.save')}
          </button>
        </>
      }
    >
      <div className="form">
        <AvatarPicker seed={group.id} name={name} headUrl={headUrl} onChange={setHeadUrl} />
        <Field label={t('group.name')} value={name} onChange={setName} maxLength={64} data-testid="group-edit-name" />
        <Field label={t('group.notice')} value={notice} onChange={setNotice} maxLength={2000} data-testid="group-edit-notice" />
      </div>
    </Dialog>
  );
}
