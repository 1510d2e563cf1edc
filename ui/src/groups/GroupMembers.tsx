import { useSetAtom } from 'jotai';
import { useState } from 'react';
import type { Group, GroupMember } from '../api/types';
import { Avatar } from '../components/Avatar';
import { ConfirmDialog } from '../components/Dialog';
import { MoreIcon } from '../components/icons';
import { PopupMenu } from '../components/PopupMenu';
import { useT, type MessageKey } from '../i18n';
import { paneAtom } from '../state/ui';
import { muteMember, removeMembers, setMemberRole, transferGroup } from './api';
import {
  filterMembers,
  formatCountdown,
  may,
  memberActions,
  memberName,
  muteLeft,
  orderMembers,
  type MemberAction,
} from './logic';
import { MuteDialog } from './MuteDialog';
import { useNow } from './useNow';
import { groupWrite } from './write';

const ACTION_LABELS: Record<MemberAction, MessageKey> = {
  makeAdmin: 'group.makeAdmin',
  makeNormal: 'group.makeNormal',
  mute: 'group.mute',
  unmute: 'group.unmute',
  remove: 'group.remove',
  transfer: 'group.transfer',
};

type Pending = { action: 'remove' | 'transfer' | 'mute'; member: GroupMember };

/** The members, owner first, each with its role, mute countdown and the actions the role allows. */
export function GroupMembers({ group, members, me }: { group: Group; members: GroupMember[]; me: string }) {
  const t = useT();
  const setPane = useSetAtom(paneAtom);
  const [query, setQuery] = useState('');
  const [menu, setMenu] = useState<{ member: GroupMember; x: number; y: number } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const now = useNow(members.some((member) => member.mutedUntil > Date.now()));
  const shown = orderMembers(filterMembers(members, query));

  function act(action: MemberAction, member: GroupMember) {
    const id = group.id;
    switch (action) {
      case 'makeAdmin':
      case 'makeNormal':
        void groupWrite(id, () => setMemberRole(id, member.memberId, action === 'makeAdmin' ? 'Admin' : 'Normal'));
        return;
      case 'unmute':
        void groupWrite(id, () => muteMember(id, member.memberId, 0));
        return;
      case 'mute':
      case 'remove':
      case 'transfer':
        setPending({ action, member });
        return;
    }
  }

  async function confirmPending(current: Pending) {
    setPending(null);
    const id = group.id;
    const target = current.member.memberId;
    await groupWrite(id, () => (current.action === 'remove' ? removeMembers(id, [target]) : transferGroup(id, target)));
  }

  return (
    <div className="member-card" data-testid="group-members">
      <h3 className="group-label">
        {t('group.members')} <span className="muted">{members.length}</span>
      </h3>
      <input
        type="search"
        className="text-input"
        placeholder={t('group.memberSearch')}
        aria-label={t('group.memberSearch')}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        data-testid="group-member-search"
      />
      <ul className="picker-list group-member-list">
        {shown.map((member) => {
          const name = memberName(member);
          const left = muteLeft(member, now);
          const actions = memberActions(group.myRole, me, member, now);
          return (
            <li
              key={member.memberId}
              className="group-member"
              data-testid="group-member"
              data-member-id={member.memberId}
              data-role={member.role}
              data-muted={left > 0 ? 'Y' : 'N'}
            >
              <Avatar name={member.name} remark={member.nickname} headUrl={member.headUrl} seed={member.memberId} size={32} />
              <span className="picker-name">
                {may(group.myRole, 'viewMember') ? (
                  <button
                    type="button"
                    className="link-button group-member-name"
                    onClick={() => setPane({ kind: 'member', memberId: member.memberId })}
                    data-testid="group-member-open"
                  >
                    {name}
                  </button>
                ) : (
                  <span>{name}</span>
                )}
                {left > 0 ? (
                  <span className="muted" data-testid="group-member-muted">
                    {t('group.mutedFor', { time: formatCountdown(left, t('group.dayUnit')) })}
                  </span>
                ) : null}
              </span>
              {member.role !== 'Normal' ? (
                <span className="pill" data-testid="group-member-role">
                  {t(`group.role.${member.role}` as MessageKey)}
                </span>
              ) : null}
              {actions.length > 0 ? (
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('group.memberActions', { name })}
                  aria-haspopup="menu"
                  onClick={(event) => {
                    const box = event.currentTarget.getBoundingClientRect();
                    setMenu({ member, x: box.right - 200, y: box.bottom });
                  }}
                  data-testid="group-member-more"
                >
                  <MoreIcon />
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      {menu ? (
        <PopupMenu
          x={menu.x}
          y={menu.y}
          label={t('group.memberActions', { name: memberName(menu.member) })}
          onClose={() => setMenu(null)}
          items={memberActions(group.myRole, me, menu.member, Date.now()).map((action) => ({
            key: action,
            label: t(ACTION_LABELS[action]),
            danger: action === 'remove' || action === 'transfer',
            onSelect: () => act(action, menu.member),
          }))}
          testId="group-member-menu"
        />
      ) : null}
      {pending?.action === 'mute' ? (
        <MuteDialog
          name={memberName(pending.member)}
          onClose={() => setPending(null)}
          onPick={(minutes) => {
            const target = pending.member.memberId;
            setPending(null);
            void groupWrite(group.id, () => muteMember(group.id, target, minutes));
          }}
        />
      ) : pending ? (
        <ConfirmDialog
          title={t(ACTION_LABELS[pending.action])}
          body={t(pending.action === 'remove' ? 'group.removeConfirm' : 'group.transferConfirm', {
            name: memberName(pending.member),
          })}
          confirmLabel={t(ACTION_LABELS[pending.action])}
          onConfirm={() => void confirmPending(pending)}
          onCancel={() => setPending(null)}
          testId="group-confirm"
        />
      ) : null}
    </div>
  );
}
