import { useSetAtom } from 'jotai';
import { useState } from 'react';
import type { Group, GroupMember, UserInfo } from '../api/types';
import { ConfirmDialog } from '../components/Dialog';
import { EditIcon } from '../components/icons';
import { PaneHeader } from '../home/PaneHeader';
import { useT } from '../i18n';
import { showToast } from '../state/toast';
import { paneAtom } from '../state/ui';
import { dissolveGroup, leaveGroup, useGroup, useGroupMembers } from './api';
import { EditGroupDialog } from './EditGroupDialog';
import { GroupAvatar } from './GroupAvatar';
import { GroupMembers } from './GroupMembers';
import { GroupRequests } from './GroupRequests';
import { mayPin } from './chatLogic';
import { GroupSettings } from './GroupSettings';
import { InviteDialog } from './InviteDialog';
import { canLeave, groupMuted, may } from './logic';
import { leaveGroupScreens } from './pushes';
import { groupWrite } from './write';
import './groups.css';

/** The group settings view of the right panel: info, members and what the member's role allows. */
export function GroupDetails({ groupId, me }: { groupId: string; me: UserInfo }) {
  const t = useT();
  const group = useGroup(groupId);
  const members = useGroupMembers(groupId);
  const info = group.data;

  if (!info) {
    return (
      <section className="pane-section" aria-label={t('group.details')} data-testid="group-details">
        <PaneHeader title={t('group.details')} />
        <p className="list-note">{group.error ? t('group.gone') : t('common.loading')}</p>
      </section>
    );
  }
  return <GroupView group={info} members={members.data ?? []} me={me} />;
}

type Confirm = 'leave' | 'dissolve';

function GroupView({ group, members, me }: { group: Group; members: GroupMember[]; me: UserInfo }) {
  const t = useT();
  const setPane = useSetAtom(paneAtom);
  const [editing, setEditing] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const role = group.myRole;

  async function run(kind: Confirm) {
    setConfirm(null);
    const write = kind === 'leave' ? () => leaveGroup(group.id) : () => dissolveGroup(group.id);
    if (!(await groupWrite(null, write))) return;
    await leaveGroupScreens(group.id, kind === 'leave' ? 'Left' : 'Dissolved');
    if (kind === 'leave') showToast(t('group.left'), 'success');
  }

  return (
    <section
      className="pane-section"
      aria-label={t('group.details')}
      data-testid="group-details"
      data-group-id={group.id}
      data-my-role={role}
    >
      <PaneHeader
        title={group.name}
        subtitle={t('group.memberCount', { n: group.memberCount })}
        leading={<GroupAvatar group={group} size={36} />}
        actions={
          may(role, 'modify') ? (
            <button
              type="button"
              className="icon-button"
              aria-label={t('group.edit')}
              title={t('group.edit')}
              onClick={() => setEditing(true)}
              data-testid="group-edit"
            >
              <EditIcon />
            </button>
          ) : null
        }
      />
      <div className="pane-scroll group-details">
        <div className="member-card">
          <div>
            <h3 className="group-label">{t('group.notice')}</h3>
            <p className="group-notice" data-testid="group-notice-text">
              {group.notice || <span className="muted">{t('group.noNotice')}</span>}
            </p>
          </div>
          {groupMuted(group, Date.now()) ? (
            <p className="pill pill-waiting" data-testid="group-all-muted">
              {t('group.allMuted')}
            </p>
          ) : null}
          <div className="member-card-actions">
            <button type="button" className="button button-secondary" onClick={() => setInviting(true)} data-testid="group-invite">
              {t('group.invite')}
            </button>
            <button type="button" className="button button-primary" onClick={() => setPane({ kind: 'chat', peerId: group.id, chatType: 'Group' })} data-testid="group-start-chat">
              {t('group.startChat')}
            </button>
          </div>
        </div>
        <GroupSettings group={group} me={members.find((member) => member.memberId === me.id)} />
        {mayPin(role) ? <GroupRequests groupId={group.id} /> : null}
        <GroupMembers group={group} members={members} me={me.id} />
        <div className="group-danger">
          {canLeave(group) ? (
            <button type="button" className="button button-danger" onClick={() => setConfirm('leave')} data-testid="group-leave">
              {t('group.leave')}
            </button>
          ) : role === 'Normal' ? (
            <p className="muted" data-testid="group-leave-locked">
              {t('group.leaveLocked')}
            </p>
          ) : null}
          {may(role, 'dissolve') ? (
            <button type="button" className="button button-danger" onClick={() => setConfirm('dissolve')} data-testid="group-dissolve">
              {t('group.dissolve')}
            </button>
          ) : null}
        </div>
      </div>
      {editing ? <EditGroupDialog group={group} onClose={() => setEditing(false)} /> : null}
      {inviting ? (
        <InviteDialog groupId={group.id} role={role} memberIds={members.map((m) => m.memberId)} onClose={() => setInviting(false)} />
      ) : null}
      {confirm ? (
        <ConfirmDialog
          title={t(confirm === 'leave' ? 'group.leave' : 'group.dissolve')}
          body={t(confirm === 'leave' ? 'group.leaveConfirm' : 'group.dissolveConfirm', { name: group.name })}
          confirmLabel={t(confirm === 'leave' ? 'group.leave' : 'group.dissolve')}
          onConfirm={() => void run(confirm)}
          onCancel={() => setConfirm(null)}
          testId="group-confirm"
        />
      ) : null}
    </section>
  );
}
