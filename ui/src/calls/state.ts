import { atom } from 'jotai';
import type { ActiveCall } from './signals';

/** The call this page shows: ringing out, ringing in, or in call. */
export const activeCallAtom = atom<ActiveCall | null>(null);
