import { atom } from 'jotai';

export type SocketStatus = 'idle' | 'connecting' | 'open' | 'closed';

export interface ConnectionState {
  status: SocketStatus;
  /** reconnect attempts since the socket was last open */
  attempts: number;
  /** the browser's navigator.onLine, kept by the offline/online events */
  online: boolean;
}

export const connectionAtom = atom<ConnectionState>({
  status: 'idle',
  attempts: 0,
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
});

/** Bumped after a reconnect: the open chat and the session list revalidate. */
export const resyncAtom = atom(0);
