import { appStore } from '../state/store';
import { paneAtom } from '../state/ui';
import { onFriendsPush } from './api';

/** 25: a friendship ended; the friend's chat is hidden and its open pane closed. */
export function onFriendDeleted(friendMemberId: string | undefined): void {
  onFriendsPush();
  if (!friendMemberId) return;
  const pane = appStore.get(paneAtom);
  if ((pane.kind === 'chat' && pane.peerId === friendMemberId) || (pane.kind === 'member' && pane.memberId === friendMemberId)) {
    appStore.set(paneAtom, { kind: 'none' });
  }
}
