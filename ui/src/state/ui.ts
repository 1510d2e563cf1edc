import { atom } from 'jotai';

export const MOBILE_BREAKPOINT_PX = 850;

export type FixedEntryId = '001' | '002' | '003';

/** What the right panel shows. */
export type Pane =
  | { kind: 'none' }
  | { kind: 'chat'; peerId: string }
  | { kind: 'fixed'; id: FixedEntryId }
  | { kind: 'addFriend' }
  | { kind: 'requests' }
  | { kind: 'member'; memberId: string }
  | { kind: 'settings' };

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
