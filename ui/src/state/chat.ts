import { atom, type SetStateAction } from 'jotai';
import type { Message } from '../api/types';
import type { MessageChanges } from '../chat/changes';
import type { ReadMarks, ReadPoint } from '../chat/timeline';
import { readJSON, removeKey, writeJSON } from './localStore';

/** Drafts as kept in the browser: the member they belong to, so another login never sees them. */
interface StoredDrafts {
  member: string;
  drafts: Record<string, string>;
}

const DRAFTS_KEY = 'drafts';

/** The drafts kept for member, or none when they were another member's. */
export function storedDrafts(member: string | undefined): Record<string, string> {
  const stored = readJSON<StoredDrafts>(DRAFTS_KEY);
  return member && stored?.member === member && stored.drafts && typeof stored.drafts === 'object' ? stored.drafts : {};
}

const draftsBase = atom<Record<string, string>>(storedDrafts(readJSON<{ user?: { id?: string } }>('auth')?.user?.id));

/**
 * Unsent text per conversation (peer id), kept in the browser for the signed-in member so that
 * a reload keeps it; logging out forgets it.
 */
export const draftsAtom = atom(
  (get) => get(draftsBase),
  (get, set, update: SetStateAction<Record<string, string>>) => {
    const next = typeof update === 'function' ? update(get(draftsBase)) : update;
    set(draftsBase, next);
    const member = readJSON<{ user?: { id?: string } }>('auth')?.user?.id;
    const kept = Object.fromEntries(Object.entries(next).filter(([, text]) => text !== ''));
    if (member && Object.keys(kept).length > 0) writeJSON(DRAFTS_KEY, { member, drafts: kept } satisfies StoredDrafts);
    else removeKey(DRAFTS_KEY);
  },
);

/** Messages this page knows better than the history pages: optimistic sends and pushes, per peer id. */
export const liveMessagesAtom = atom<Record<string, Message[]>>({});

/** The time of the newest message the live list of a peer dropped to stay within its bound. */
export const liveDroppedAtom = atom<Record<string, number>>({});

export const readMarksAtom = atom<Record<string, ReadMarks>>({});

/** The last incoming message a read ack (27) was sent for, per peer id. */
export const ackedUpToAtom = atom<Record<string, ReadPoint>>({});

/** Edits, recalls, deletions and clears per peer id, laid over the timeline. */
export const messageChangesAtom = atom<Record<string, MessageChanges>>({});

/** The composer replies to a message or edits one of one's own, per peer id. */
export type ComposerMode = { kind: 'reply'; message: Message } | { kind: 'edit'; message: Message; text: string };

export const composerModeAtom = atom<Record<string, ComposerMode | undefined>>({});

/** The open or once opened conversations that are groups; the others are friend chats. */
export const groupChatsAtom = atom<Record<string, true>>({});
