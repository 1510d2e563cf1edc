// Pushes of group changes (docs/api-groups.md): 22 a group was created or this member joined,
// 23 a group's settings or members changed, 21 the group is gone for this member (dissolved,
// left or removed). Open screens read their group again past the change's position.
import { mutate } from 'swr';
import type { GroupPush, MyGroups } from '../api/types';
import { queueSessionUpdate } from '../chat/sessionCache';
import { t } from '../i18n';
import { appStore } from '../state/store';
import { showToast } from '../state/toast';
import { openGroupIdAtom, paneAtom } from '../state/ui';
import { groupKeys, refreshGroup } from './api';

export const GROUP_CMD = { gone: 21, joined: 22, changed: 23 } as const;

export function onGroupPush(cmd: number, push: GroupPush | undefined, me: string): void {
  if (!push?.groupId) return;
  if (cmd === GROUP_CMD.joined) void refreshGroup(null, push.position);
  else if (cmd === GROUP_CMD.changed) void refreshGroup(push.groupId, push.position);
  else if (push.memberId && push.memberId !== me) void refreshGroup(push.groupId, push.position);
  else void leaveGroupScreens(push.groupId, push.operationType);
}

/** Drops a group this member no longer belongs to from the list, the recents and the open pane. */
export async function leaveGroupScreens(groupId: string, operationType: string): Promise<void> {
  let name = '';
  await mutate<MyGroups>(
    groupKeys.mine,
    (current) => {
      if (!current) return current;
      name = [...current.managed, ...current.joined].find((group) => group.id === groupId)?.name ?? '';
      const other = (list: MyGroups['managed']) => list.filter((group) => group.id !== groupId);
      return { managed: other(current.managed), joined: other(current.joined) };
    },
    { revalidate: true },
  );
  queueSessionUpdate((list) => list.filter((session) => session.id !== groupId));
  if (appStore.get(openGroupIdAtom) === groupId) appStore.set(paneAtom, { kind: 'none' });
  if (operationType === 'Dissolved') showToast(t('group.dissolved', { name }), 'info');
  else if (operationType === 'Removed') showToast(t('group.removedMe', { name }), 'success');
}
