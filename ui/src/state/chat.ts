import { atom } from 'jotai';
import type { Message } from '../api/types';
import type { MessageChanges } from '../chat/changes';
import type { ReadMarks } from '../chat/timeline';

/** Unsent text per conversation (peer id). */
export const draftsAtom = atom<Record<string, string>>({});

/** Messages this page knows better than the history pages: optimistic sends and pushes, per peer id. */
export const liveMessagesAtom = atom<Record<string, Message[]>>({});

export const readMarksAtom = atom<Record<string, ReadMarks>>({});

/** The newest incoming message id a read ack (27) was sent for, per peer id. */
export const ackedUpToAtom = atom<Record<string, string>>({});

/** Edits, recalls, deletions and clears per peer id, laid over the timeline. */
export const messageChangesAtom = atom<Record<string, MessageChanges>>({});

/** The composer replies to a message or edits one of one's own, per peer id. */
export type ComposerMode = { kind: 'reply'; message: Message } | { kind: 'edit'; message: Message; text: string };

export const composerModeAtom = atom<Record<string, ComposerMode | undefined>>({});

/** The open or once opened conversations that are groups; the others are friend chats. */
export const groupChatsAtom = atom<Record<string, true>>({});
