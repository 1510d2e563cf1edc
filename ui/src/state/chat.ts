import { atom } from 'jotai';
import type { Message } from '../api/types';
import type { ReadMarks } from '../chat/timeline';

/** Unsent text per conversation (peer id). */
export const draftsAtom = atom<Record<string, string>>({});

/** Messages this page knows better than the history pages: optimistic sends and pushes, per peer id. */
export const liveMessagesAtom = atom<Record<string, Message[]>>({});

export const readMarksAtom = atom<Record<string, ReadMarks>>({});

/** The newest incoming message id a read ack (27) was sent for, per peer id. */
export const ackedUpToAtom = atom<Record<string, string>>({});
