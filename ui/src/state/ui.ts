import { atom } from 'jotai';
import type { ChatType } from '../api/types';

export const MOBILE_BREAKPOINT_PX = 850;

/** 004: the chat assistant, #/chatGpt */
export type FixedEntryId = '001' | '002' | '003' | '004';

/** What the right panel shows. */
export type Pane =
  | { kind: 'none' }
  /** a friend chat, or a group chat when chatType is Group (peerId is then the group id); messageId a message to land on */
  | { kind: 'chat'; peerId: string; chatType?: ChatType; messageId?: string }
  | { kind: 'fixed'; id: FixedEntryId }
  | { kind: 'addFriend' }
  | { kind: 'requests' }
  | { kind: 'member'; memberId: string }
  | { kind: 'group'; groupId: string }
  | { kind: 'settings' }
  | { kind: 'topup' };

export const paneAtom = atom<Pane>({ kind: 'none' });

export type LeftTab = 'chats' | 'contacts';

export const leftTabAtom = atom<LeftTab>('chats');

function initialMobile(): boolean {
  return typeof window !== 'undefined' && window.innerWidth < MOBILE_BREAKPOINT_PX;
}

/** Below 850px one panel shows at a time. */
export const isMobileAtom = atom<boolean>(initialMobile());

export const openPeerIdAtom = atom((get) => {
  const pane = get(paneAtom);
  return pane.kind === 'chat' ? pane.peerId : null;
});

/** The group whose chat or details are open, if any. */
export const openGroupIdAtom = atom((get) => {
  const pane = get(paneAtom);
  if (pane.kind === 'group') return pane.groupId;
  return pane.kind === 'chat' && pane.chatType === 'Group' ? pane.peerId : null;
});
